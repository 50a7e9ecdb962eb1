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
    static let flags: Set<String> = ["--verbose", "-v"]

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

    static func arranged(_ arguments: [String], commands: Names = Names(of: Abplayer.self)) -> Outcome {
        var leading: [String] = []
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            let name = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
            if valued.contains(word), index + 1 < arguments.count {
                leading += [word, arguments[index + 1]]
                index += 2
            } else if valued.contains(name) && word.contains("=") || flags.contains(word) {
                leading.append(word)
                index += 1
            } else {
                break
            }
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
                var rest = arguments[index...]
                while let word = rest.popFirst() {
                    if valued.contains(word), let value = rest.popFirst() {
                        options += [word, value]
                    } else if flags.contains(word) || valued.contains(where: { word.hasPrefix($0 + "=") }) {
                        options.append(word)
                    } else {
                        words.append(word)
                    }
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
