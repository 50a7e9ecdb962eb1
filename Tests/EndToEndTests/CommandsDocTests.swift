import Foundation
import TestSupport
import Testing

/// docs/commands.md is generated from the command tables (`abplayer debug-commands-doc`), and the
/// other documents name only commands that exist: the docs cannot go stale unseen.
@Suite struct CommandsDocTests {
    static let documents = ["README.md", "docs/guide.md", "docs/architecture.md", "CONTRIBUTING.md"]

    static func read(_ path: String) throws -> String {
        try String(contentsOf: BuildProducts.packageDirectory.appending(path: path), encoding: .utf8)
    }

    @Test func theCommittedCommandsDocIsWhatTheCommandTablesGenerate() throws {
        // Given the committed docs/commands.md
        let committed = try Self.read("docs/commands.md")

        // When the binary prints it from its command tables (the REPL's help, ArgumentParser's)
        let generated = try AbplayerProcess("commands-doc").run([Self.generator])

        // Then they are the same, byte for byte
        #expect(generated.status == 0, "\(generated.stderr)")
        let lines = generated.stdoutString.split(separator: "\n", omittingEmptySubsequences: false)
        let committedLines = committed.split(separator: "\n", omittingEmptySubsequences: false)
        let firstDifference = zip(lines, committedLines).enumerated().first { $0.element.0 != $0.element.1 }
            .map { "line \($0.offset + 1): generated '\($0.element.0)', committed '\($0.element.1)'" }
            ?? "lengths differ: \(lines.count) lines generated, \(committedLines.count) committed"
        let same = generated.stdoutString == committed // (not in the expectation: it would print both files whole)
        #expect(same, "docs/commands.md is stale (\(firstDifference)): run .build/debug/abplayer debug-commands-doc > docs/commands.md")
    }

    @Test func theDocumentsNameOnlyCommandsThatExist() throws {
        // Given the commands there are, as the generated (and checked) docs/commands.md lists them:
        // the shell's subcommands by their headings, the REPL's by their list items
        let reference = try Self.read("docs/commands.md")
        var subcommands: [String: Set<String>] = [:]
        for match in reference.matches(of: /\n### abplayer ([a-z-]+)(?: ([a-z-]+))?\n/) {
            subcommands[String(match.1), default: []].formUnion(match.2.map { [String($0)] } ?? [])
        }
        let replCommands = Set(reference.matches(of: /\n- `([a-z]+)[ `]/).map { String($0.1) })
        #expect(subcommands.count > 20 && replCommands.count > 40, "commands.md lists \(subcommands.count) subcommands, \(replCommands.count) REPL commands")

        // When every `abplayer WORD [WORD]` written as code in the other documents is looked up
        var unknown: [String] = []
        for path in Self.documents {
            for snippet in Self.code(in: try Self.read(path)) {
                // (`playerctl -p abplayer play-pause` names the player, not a command)
                for match in snippet.matches(of: /(?:^|[\s\/(])(-p +)?abplayer +([a-z][a-z0-9-]*)(?: +([a-z][a-z0-9-]*))?/) where match.1 == nil {
                    let word = String(match.2), next = match.3.map(String.init)
                    if word == Self.generator {
                        continue
                    } else if let actions = subcommands[word] {
                        // A group (`book`, `sync`) takes one of its own subcommands, or an argument not spelled like one
                        if let next, !actions.isEmpty, !actions.contains(next), !Self.arguments.contains(next) {
                            unknown.append("\(path): abplayer \(word) \(next)")
                        }
                    } else if !replCommands.contains(word) {
                        unknown.append("\(path): abplayer \(word)")
                    }
                }
            }
        }

        // Then each is a subcommand (with one of its own) or a REPL command
        #expect(unknown.isEmpty, "no such command: \(unknown.joined(separator: "; "))")
    }

    /// The hidden command that prints docs/commands.md (the test above runs it), named in the docs
    /// that say how to regenerate the file.
    static let generator = "debug-commands-doc"

    /// Lowercase words the docs give a group as its argument rather than as a subcommand.
    static let arguments: Set<String> = ["off", "on"]

    /// The code in Markdown `text`: fenced blocks (their lines, less a `#` comment) and inline spans.
    static func code(in text: String) -> [String] {
        var snippets: [String] = []
        var fenced = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                fenced.toggle()
            } else if fenced {
                snippets.append(String(line.split(separator: " #", maxSplits: 1).first ?? line))
            } else {
                snippets += line.matches(of: /`([^`]+)`/).map { String($0.1) }
            }
        }
        return snippets
    }
}
