import Foundation

/// A command `play` reads from standard input while it plays, one per line (the REPL will take
/// these over): `pause`, `resume`, `status`, `output SPEC`, `stop`.
enum PlayInput: Equatable {
    case pause, resume, status, stop
    case output(OutputSpec)

    /// nil for an empty line; throws a one-line reason for anything else unknown.
    init?(parsing line: String) throws {
        let words = line.split(separator: " ", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        switch (words.first, words.count) {
        case (nil, _): return nil
        case ("pause", 1): self = .pause
        case ("resume", 1), ("play", 1): self = .resume
        case ("status", 1): self = .status
        case ("stop", 1), ("quit", 1): self = .stop
        case ("output", 2): self = .output(try OutputSpec(parsing: words[1]))
        default: throw PlayInputError(line: line)
        }
    }

    /// Reads commands from standard input on a thread of its own until it ends; `handle` is
    /// called on that thread.
    static func readStandardInput(_ handle: @escaping @Sendable (PlayInput) -> Void) {
        let thread = Thread {
            while let line = readLine() {
                do {
                    if let command = try PlayInput(parsing: line) { handle(command) }
                } catch {
                    printError("abplayer: \(error)")
                }
            }
        }
        thread.name = "abplayer-input"
        thread.start()
    }
}

struct PlayInputError: Error, CustomStringConvertible {
    let line: String
    var description: String {
        "unknown command '\(line)': use pause, resume, status, output \(OutputSpec.syntax), or stop"
    }
}
