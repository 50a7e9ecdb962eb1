/// The REPL's commands as Markdown, for docs/commands.md: the same table `help all` shows
/// (`CommandHelp.all`, by `HelpTopic`), so the manual and the REPL's help cannot tell two stories.
/// `abplayer debug-commands-doc` puts it together with the command line's own help.
public enum CommandReference {
    /// A section per topic, a list item per command (its usage in code, its summary, its other
    /// names), with its actions as items under it. Headings start at `level`.
    public static func markdown(headingLevel level: Int = 3) -> String {
        let heading = String(repeating: "#", count: level)
        return HelpTopic.allCases.map { topic in
            let commands = CommandHelp.all.filter { $0.topic == topic }
            return "\(heading) \(topic.rawValue)\n\n\(sentence(topic.summary))\n\n" + commands.map(item).joined(separator: "\n") + "\n"
        }.joined(separator: "\n")
    }

    private static func item(_ command: CommandHelp) -> String {
        var lines = ["- \(code(command.usage)): \(command.summary)"]
        if !command.aliases.isEmpty {
            lines[0] += " (also " + command.aliases.map(code).joined(separator: ", ") + ")"
        }
        lines += command.actions.map { "  - \(code($0.usage)): \($0.summary)" }
        return lines.joined(separator: "\n")
    }

    /// `text` as inline code; a usage holding a backtick gets a longer fence (CommonMark).
    private static func code(_ text: String) -> String {
        text.contains("`") ? "`` \(text) ``" : "`\(text)`"
    }

    /// A topic's summary as a sentence: capitalised, with a full stop.
    private static func sentence(_ text: String) -> String {
        (text.prefix(1).uppercased() + text.dropFirst()) + (text.hasSuffix(".") ? "" : ".")
    }
}
