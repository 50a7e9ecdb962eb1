import ArgumentParser
import Foundation

/// The command tree as ArgumentParser describes it with `--experimental-dump-help` (its
/// ToolInfo, serialization version 0): the part the manual page reads. Decoded from the JSON
/// rather than imported (ArgumentParserToolInfo is not a product of the package).
struct HelpDump: Decodable {
    struct Command: Decodable {
        let commandName: String
        let superCommands: [String]?
        let abstract: String?
        let discussion: String?
        let shouldDisplay: Bool
        let subcommands: [Command]?
        let arguments: [Argument]?

        /// `abplayer book settings`: the words that run it.
        var fullName: String { ((superCommands ?? []) + [commandName]).joined(separator: " ") }
        var displayedArguments: [Argument] { (arguments ?? []).filter(\.shouldDisplay) }
        var displayedSubcommands: [Command] { (subcommands ?? []).filter(\.shouldDisplay) }
    }

    struct Argument: Decodable {
        enum Kind: String, Decodable { case positional, option, flag }

        struct Name: Decodable {
            enum Kind: String, Decodable { case long, short, longWithSingleDash }
            let kind: Kind
            let name: String

            var spelled: String {
                switch kind {
                case .long: "--" + name
                case .short: "-" + name
                case .longWithSingleDash: "-" + name
                }
            }
        }

        let kind: Kind
        let shouldDisplay: Bool
        let isOptional: Bool
        let isRepeating: Bool
        let names: [Name]?
        let valueName: String?
        let defaultValue: String?
        let allValues: [String]?
        let abstract: String?
        let discussion: String?
    }

    let serializationVersion: Int
    let command: Command

    /// The dump of `Root`'s whole tree, asked of ArgumentParser in this process (what
    /// `abplayer --experimental-dump-help` prints).
    static func of<Root: ParsableCommand>(_ root: Root.Type) throws -> HelpDump {
        let json: String
        do {
            _ = try root.parseAsRoot(["--experimental-dump-help"])
            throw ValidationError("ArgumentParser printed no command tree for --experimental-dump-help")
        } catch let error where !(error is ValidationError) {
            json = root.fullMessage(for: error)
        }
        return try JSONDecoder().decode(HelpDump.self, from: Data(json.utf8))
    }
}
