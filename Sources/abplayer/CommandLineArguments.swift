import ArgumentParser
import Console

/// The command line as ArgumentParser is given it. The options the commands share may come
/// before the command (`abplayer --library L remote status`, as git and systemctl allow): they
/// are moved behind the command's words (`remote status` -> `remote --library L status` would
/// split the command's own words, so behind the whole subcommand path). A first word that is a
/// REPL command (`ls`, `chapters BOOK`, `status`) runs as a `-c` line; one that is no command
/// but close to one is answered with the command meant.
enum CommandLineArguments {
    /// Shared options that take a value, and shared flags.
    static let valued: Set<String> = ["--library", "--plugin-dir", "--decoder-option", "--output"]
    static let flags: Set<String> = ["--verbose", "-v", "--plain"]

    enum Outcome: Equatable {
        case arguments([String])
        /// The first word is no command; the nearest one.
        case typo(word: String, meant: String)
    }

    /// A command's name and its subcommands', as plain values.
    struct Names: Equatable {
        let name: String
        let subcommands: [Names]

        init(name: String, subcommands: [Names]) {
            self.name = name
            self.subcommands = subcommands
        }

        init(of command: any ParsableCommand.Type) {
            self.init(name: command._commandName, subcommands: command.configuration.subcommands.map(Names.init(of:)))
        }
    }

    /// How many words the shared option at `index` takes (`--library L`: 2; `--library=L`, `-v`:
    /// 1); 0 when the word there is no shared option.
    static func sharedOptionWords(at index: Int, in arguments: [String]) -> Int {
        let word = arguments[index]
        let name = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
        if valued.contains(word) { return index + 1 < arguments.count ? 2 : 0 }
        return valued.contains(name) && word.contains("=") || flags.contains(word) ? 1 : 0
    }

    static func arranged(_ arguments: [String], commands: Names = Names(of: Abplayer.self)) -> Outcome {
        var leading: [String] = []
        var index = 0
        while index < arguments.count, case let taken = sharedOptionWords(at: index, in: arguments), taken > 0 {
            leading += arguments[index..<index + taken]
            index += taken
        }
        // `--version` is the hidden `version` command, which loads the plugins to name them.
        if index < arguments.count, arguments[index] == "--version" {
            return .arguments(["version"] + leading + Array(arguments[(index + 1)...]))
        }
        guard index < arguments.count, !arguments[index].hasPrefix("-") else { return .arguments(arguments) }
        // The subcommand path: `book settings` is two words.
        var command = commands
        var end = index
        while end < arguments.count, let sub = command.subcommands.first(where: { $0.name == arguments[end] }) {
            command = sub
            end += 1
        }
        if end == index {
            // Every command of the REPL works as `abplayer COMMAND ...` (one grammar): run as a
            // `-c` line, its words quoted as given (to the player when one runs, as `-c` goes).
            if CommandHelp.named(arguments[index]) != nil {
                // (the shared options may follow its words too: they are the player's, not its)
                var words: [String] = []
                var options = leading
                var at = index
                while at < arguments.count {
                    let taken = sharedOptionWords(at: at, in: arguments)
                    if taken > 0 { options += arguments[at..<at + taken] } else { words.append(arguments[at]) }
                    at += max(taken, 1)
                }
                return .arguments(options + ["-c", Tokenizer.line(quoting: [words])])
            }
            if let meant = Suggestion.nearest(to: arguments[index], among: commands.subcommands.map(\.name)) {
                return .typo(word: arguments[index], meant: meant)
            }
            return .arguments(arguments)
        }
        guard !leading.isEmpty else { return .arguments(arguments) }
        return .arguments(Array(arguments[index..<end]) + leading + Array(arguments[end...]))
    }
}
