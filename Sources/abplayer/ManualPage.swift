import Console

/// abplayer(1) in roff, made from the command definitions themselves — ArgumentParser's dump of
/// every command and option, and the REPL's command table — so that the installed manual says
/// what this very binary parses (`make install` runs `abplayer man-page`).
struct ManualPage {
    let dump: HelpDump
    let replCommands: [CommandHelp]
    let version: String

    var roff: String {
        var lines = [
            ".TH ABPLAYER 1 \"\" \"abplayer \(Roff.text(version))\" \"abplayer manual\"",
            ".SH NAME",
            "abplayer \\- \(Roff.text(dump.command.abstract ?? "a terminal audiobook player"))",
            ".SH SYNOPSIS",
            ".B abplayer",
            "[\\fIOPTIONS\\fR]",
            ".br",
            ".B abplayer",
            "\\fICOMMAND\\fR [\\fIARGUMENTS\\fR]",
            ".br",
            ".B abplayer \\-\\-version",
            ".SH DESCRIPTION",
            "Without a command, abplayer starts the interactive prompt (the",
            ".B repl",
            "command below, whose options it takes): at a terminal a prompt with line editing and",
            "history, from a pipe one command per line, with",
            ".B \\-c",
            "the commands given, with",
            ".B \\-\\-daemon",
            "a player with no terminal, reached through",
            ".BR \"abplayer remote\" .",
            "Every command of the prompt (REPL COMMANDS below) also runs as",
            ".BI \"abplayer \" \"COMMAND ARGUMENTS\"\\fR.",
            ".PP",
            ".B abplayer \\-\\-version",
            "prints abplayer's version, the plugin ABI and each plugin loaded.",
            ".SH COMMANDS",
        ]
        for command in dump.command.displayedSubcommands { lines += section(command) }
        lines += replSection
        lines += Self.closingSections
        return lines.joined(separator: "\n") + "\n"
    }

    /// One command and its options, then its subcommands'.
    private func section(_ command: HelpDump.Command) -> [String] {
        let arguments = command.displayedArguments.filter { !$0.isHelpFlag }
        var synopsis = "\\fB\(Roff.text(command.fullName))\\fR"
        for argument in arguments where argument.kind == .positional { synopsis += " " + Roff.placeholder(argument) }
        if arguments.contains(where: { $0.kind != .positional }) { synopsis += " [\\fIOPTIONS\\fR]" }
        if !command.displayedSubcommands.isEmpty { synopsis += " \\fICOMMAND\\fR" }
        var lines = [".SS \"\(Roff.text(command.fullName))\"", synopsis, ".br"]
        if let abstract = command.abstract { lines += Roff.paragraphs(abstract) }
        if let discussion = command.discussion, !discussion.isEmpty { lines += [".PP"] + Roff.paragraphs(discussion) }
        for argument in arguments {
            lines += [".TP", Roff.term(argument)]
            var body = argument.abstract ?? ""
            if let values = argument.allValues, !values.isEmpty, argument.kind != .flag { body += " (one of: \(values.joined(separator: ", ")))" }
            if let value = argument.defaultValue, !value.isEmpty, argument.kind != .flag { body += " (default: \(value))" }
            lines += Roff.paragraphs(body, between: ".IP")
            if let discussion = argument.discussion, !discussion.isEmpty { lines += [".IP"] + Roff.paragraphs(discussion, between: ".IP") }
        }
        for subcommand in command.displayedSubcommands { lines += section(subcommand) }
        return lines
    }

    /// The prompt's commands by topic, as `help` shows them.
    private var replSection: [String] {
        var lines = [
            ".SH \"REPL COMMANDS\"",
            "At the prompt, after",
            ".BR \\-c ,",
            "sent with",
            ".BR \"abplayer remote\" ,",
            "and as",
            ".BI \"abplayer \" COMMAND\\fR.",
            "At the prompt,",
            ".B help",
            "\\fITOPIC\\fR or",
            ".B help",
            "\\fICOMMAND\\fR says more.",
        ]
        for topic in HelpTopic.allCases {
            let commands = replCommands.filter { $0.topic == topic }
            guard !commands.isEmpty else { continue }
            lines.append(".SS \"\(Roff.text(topic.rawValue.capitalized))\"")
            for command in commands {
                lines += [".TP", "\\fB\(Roff.code(command.usage))\\fR"]
                var summary = command.summary
                if !command.aliases.isEmpty { summary += " (also: \(command.aliases.joined(separator: ", ")))" }
                lines += Roff.paragraphs(summary)
                for action in command.actions {
                    lines += [".TP", "\\fB\(Roff.code(action.usage))\\fR"] + Roff.paragraphs(action.summary)
                }
            }
        }
        return lines
    }

    private static let closingSections = [
        ".SH ENVIRONMENT",
        ".TP",
        ".B ABPLAYER_PLUGIN_PATH",
        "Directories searched for plugins after those named with",
        ".BR \\-\\-plugin\\-dir ,",
        "separated by colons; relative entries are ignored.",
        ".TP",
        ".B XDG_DATA_HOME",
        "The library is",
        ".I $XDG_DATA_HOME/abplayer/library.sqlite",
        "(default",
        ".IR ~/.local/share ),",
        "and the listener's own plugins are in",
        ".IR $XDG_DATA_HOME/abplayer/plugins .",
        ".TP",
        ".B XDG_CONFIG_HOME",
        "Event hooks are in",
        ".I $XDG_CONFIG_HOME/abplayer/hooks",
        "(default",
        ".IR ~/.config ).",
        ".SH FILES",
        ".TP",
        ".I <prefix>/lib/abplayer/plugins",
        "The plugins installed with abplayer (decoders and outputs), found from the executable's own",
        "location, never from the current directory. A plugin file or directory writable by its group",
        "or others, or owned by another user, is refused.",
        ".TP",
        ".I <prefix>/lib/systemd/user/abplayer.service",
        "A systemd user unit running",
        ".BR \"abplayer \\-\\-daemon\" :",
        ".B systemctl \\-\\-user enable \\-\\-now abplayer",
        ".SH \"SEE ALSO\"",
        ".BR abplayer (7)",
        "(the listener's guide)",
    ]
}

extension HelpDump.Argument {
    /// `-h, --help`, which every command has: said once by the synopsis, not under each command.
    var isHelpFlag: Bool { kind == .flag && names?.contains { $0.name == "help" } == true }
}

/// Text made safe for roff: a backslash or a line's leading dot or quote taken literally,
/// `code` in bold, and every character beyond ASCII as a named glyph (`\[u2014]`), so the page
/// reads the same whatever encoding man guesses for it.
enum Roff {
    static func text(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\e"
            case "\"": escaped += "\\(dq"
            case _ where scalar.value > 127: escaped += "\\[u" + hex(scalar.value) + "]"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// A command line or an option: its hyphens are minus signs (copied from the page, they work).
    static func code(_ text: String) -> String {
        self.text(text).replacingOccurrences(of: "-", with: "\\-")
    }

    /// Paragraphs (blank lines between them) of running text; `quoted` spans become bold.
    static func paragraphs(_ text: String, between separator: String = ".PP") -> [String] {
        let blocks = text.components(separatedBy: "\n\n")
        var lines: [String] = []
        for (index, block) in blocks.enumerated() {
            if index > 0 { lines.append(separator) }
            for line in block.split(separator: "\n", omittingEmptySubsequences: true) {
                let rendered = backticksInBold(String(line))
                lines.append(rendered.first == "." || rendered.first == "'" ? "\\&" + rendered : rendered)
            }
        }
        return lines.isEmpty ? ["\\&"] : lines
    }

    /// An argument's tag: `\fB--output\fR \fIOUTPUT\fR`.
    static func term(_ argument: HelpDump.Argument) -> String {
        switch argument.kind {
        case .positional:
            return placeholder(argument)
        case .flag, .option:
            let names = (argument.names ?? []).map { "\\fB" + code($0.spelled) + "\\fR" }.joined(separator: ", ")
            guard argument.kind == .option else { return names }
            return names + " \\fI" + text(argument.valueName ?? "VALUE") + "\\fR" + (argument.isRepeating ? " ..." : "")
        }
    }

    /// A positional argument as the synopsis shows it: `\fIFILE\fR ...`, in brackets when optional.
    static func placeholder(_ argument: HelpDump.Argument) -> String {
        var word = "\\fI" + text((argument.valueName ?? "argument").uppercased()) + "\\fR"
        if argument.isRepeating { word += " ..." }
        return argument.isOptional ? "[" + word + "]" : word
    }

    private static func backticksInBold(_ line: String) -> String {
        let parts = line.split(separator: "`", omittingEmptySubsequences: false)
        guard parts.count >= 3, parts.count % 2 == 1 else { return text(line) }
        return parts.enumerated().map { index, part in
            index % 2 == 1 ? "\\fB" + code(String(part)) + "\\fR" : text(String(part))
        }.joined()
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
