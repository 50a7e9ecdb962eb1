import ArgumentParser
import Console
import Foundation

/// A hidden command for the documentation: prints docs/commands.md, made from the two command
/// tables there are — the REPL's (`CommandReference`, what `help all` shows) and the command
/// line's (ArgumentParser's help of every subcommand) — so the file cannot drift from either.
/// `CommandsDocTests` fails when the committed file is not what this prints.
struct CommandsDocCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "debug-commands-doc", abstract: "Print docs/commands.md (every command) from the command tables.",
        shouldDisplay: false)

    /// The help's width: fixed, so the file is the same from a terminal, a pipe or a test.
    static let columns = 80

    /// The options every command shares (the root help lists them once): left out of each
    /// subcommand's block, where they would repeat thirty times.
    static let sharedOptions: Set<String> = ["--library", "--plain", "--plugin-dir", "--decoder-option", "-v", "-h"]

    func run() {
        print(Self.document, terminator: "")
    }

    static var document: String {
        var parts = [
            """
            # abplayer commands

            Every command abplayer has, generated from its command tables by
            `abplayer debug-commands-doc > docs/commands.md` (a test fails when this file is not what
            that prints: edit the help texts in the code, then run it again). The listener's manual is
            [guide.md](guide.md).

            There are two kinds. The REPL's commands are typed at the `abplayer` prompt, given to
            `abplayer -c 'CMD; CMD'`, piped in one a line, sent with `abplayer remote CMD` or a line on
            the control socket, and run from the shell as `abplayer CMD ARGS` (`abplayer ls`,
            `abplayer chapters Dune`): one grammar everywhere. The command-line subcommands (`probe`,
            `play`, `import`, `listen`...) are the shell's only. Where a word is both (`library`,
            `bookmarks`, `sync`), the shell runs the subcommand.

            Units are the same everywhere: volume in percent (0-150), speed as a factor (0.5-4), times
            as `90`, `1:30`, `1:02:03.250`, `90s`, `30m`, `1h`, `1h30m` (a bare number is seconds, except
            for `sleep`, where it is minutes). BOOK is a book's `#id` or a unique part of its title.

            ## At the prompt (the REPL)

            `help` shows the topics, `help TOPIC` one topic, `help COMMAND` one command with its
            actions, `help all` all of what follows.

            """,
            CommandReference.markdown(headingLevel: 3),
            """

            ## From the shell

            Every subcommand's `--help` (`abplayer help SUBCOMMAND` says the same). The options
            listed under `abplayer` itself (`--library`, `--plain`, `--plugin-dir`, `--decoder-option`,
            `--verbose`) work with every subcommand that reads the library or loads plugins, and may
            come before the subcommand's name; they are not repeated below.

            ### abplayer

            """ + "\n" + codeBlock(TopLevelHelp.text(columns: columns)),
        ]
        for subcommand in Abplayer.configuration.subcommands {
            parts += sections(subcommand, path: ["abplayer"])
        }
        return parts.joined(separator: "\n")
    }

    /// The section of `command` (named after `path`) and of each of its subcommands, hidden ones left out.
    private static func sections(_ command: any ParsableCommand.Type, path: [String]) -> [String] {
        guard command.configuration.shouldDisplay else { return [] }
        let path = path + [command._commandName]
        let help = Abplayer.helpMessage(for: command, includeHidden: false, columns: columns)
        return ["### \(path.joined(separator: " "))\n\n" + codeBlock(withoutSharedOptions(help))]
            + command.configuration.subcommands.flatMap { sections($0, path: path) }
    }

    /// The help without the entries of the shared options: an entry is its `  -x, --name` line
    /// and the lines indented deeper below it.
    static func withoutSharedOptions(_ help: String) -> String {
        var kept: [Substring] = []
        var skipping = false
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("  -") {
                let names = line.split(separator: " ").prefix(2).map { $0.trimmingCharacters(in: [","]) }
                skipping = names.contains { sharedOptions.contains($0) }
            } else if !line.hasPrefix("   ") {
                skipping = false
            }
            if !skipping { kept.append(line) }
        }
        // A section left with no entry (`plugins` has only shared options) goes too.
        if let empty = kept.indices.first(where: { kept[$0] == "OPTIONS:" && (kept.index(after: $0) == kept.endIndex || kept[$0 + 1].isEmpty) }) {
            kept.remove(at: empty)
        }
        return kept.joined(separator: "\n")
    }

    private static func codeBlock(_ text: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            String(line.reversed().drop { $0 == " " }.reversed())
        }
        let body = lines.joined(separator: "\n").trimmingCharacters(in: .newlines)
        return "```text\n\(body)\n```\n"
    }
}
