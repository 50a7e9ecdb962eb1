import Foundation
import Player
import PlayerCore

/// A command `play` reads from standard input while it plays, one per line (the REPL will take
/// these over): `pause`, `resume`, `status`, `output SPEC`, `speed X`, `volume P`, `stop`.
enum PlayInput: Equatable {
    case pause, resume, status, stop
    /// As typed: `ID[:ARG][,key=value...]`, resolved against the plugins when it runs.
    case output(String)
    case speed(Double)
    /// In percent.
    case volume(Double)

    /// nil for an empty line; throws a one-line reason for anything else unknown.
    init?(parsing line: String) throws {
        let words = line.split(separator: " ", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        switch (words.first, words.count) {
        case (nil, _): return nil
        case ("pause", 1): self = .pause
        case ("resume", 1), ("play", 1): self = .resume
        case ("status", 1): self = .status
        case ("stop", 1), ("quit", 1): self = .stop
        case ("output", 2): self = .output(words[1])
        case ("speed", 2):
            do {
                self = .speed(try SettingText.speed(words[1]))
            } catch {
                throw PlayInputError(line: line, reason: error.description)
            }
        case ("volume", 2):
            do {
                self = .volume(try SettingText.volume(words[1]))
            } catch {
                throw PlayInputError(line: line, reason: error.description)
            }
        default: throw PlayInputError(line: line)
        }
    }

    /// Why `speed` cannot be played at, or nil when it can.
    static func speedProblem(_ speed: Double) -> String? {
        do {
            try SettingText.check(speed: speed)
            return nil
        } catch {
            return error.description
        }
    }

    /// Why `percent` is not a volume, or nil when it is.
    static func volumeProblem(_ percent: Double) -> String? {
        do {
            try SettingText.check(volume: percent)
            return nil
        } catch {
            return error.description
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
    /// Set when the command is known but its argument is wrong.
    var reason: String?
    var description: String {
        if let reason { return "'\(line)': \(reason)" }
        return "unknown command '\(line)': use pause, resume, status, output ID[:ARG], speed X, volume P, or stop"
    }
}
