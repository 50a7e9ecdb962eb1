import Foundation
import Player
import PlayerCore

/// `chapter add/rename/rm` and `chapters reset/detect` as typed: changes to a book's own
/// chapters. Numbers are as `chapters` lists them; books are named as typed (the console finds
/// them in the library).
public enum ChapterLine: Equatable, Sendable {
    /// Nil seconds: at the place heard now.
    case add(seconds: Double?, title: String)
    case rename(number: Int, title: String)
    case remove(number: Int)
    /// Nil: the book loaded.
    case reset(book: String?)
    /// `confirmed`: store without asking (`--yes`, for scripts). Nil: the default silence.
    case detect(minimumSilence: Double?, confirmed: Bool, book: String?)

    static let editUsage = "chapter add [TIME] TITLE | rename N TITLE | rm N"
    static let listUsage = "chapters [BOOK] | reset [BOOK] | detect [MIN_SILENCE] [--yes] [BOOK]"

    /// `chapter add|rename|rm ...`; nil when the words are not one of these (`chapter NAME`).
    static func edit(_ arguments: [String]) throws(CommandError) -> ChapterLine? {
        guard let verb = arguments.first, ["add", "rename", "rm"].contains(verb), arguments.count >= 2 else {
            if let verb = arguments.first, ["add", "rename", "rm"].contains(verb) { throw CommandError("usage: chapter \(verbUsage(verb))") }
            return nil
        }
        let rest = Array(arguments.dropFirst())
        switch verb {
        case "add":
            // `chapter add 1:30 Title`; a title that starts with a time is written after --.
            if rest.first == "--" { return .add(seconds: nil, title: try title(rest.dropFirst(), verb)) }
            if rest.count >= 2, let seconds = Timecode.seconds(from: rest[0]) {
                return .add(seconds: seconds, title: try title(rest.dropFirst(rest[1] == "--" ? 2 : 1), verb))
            }
            return .add(seconds: nil, title: try title(rest[...], verb))
        case "rename":
            guard rest.count >= 2 else { throw CommandError("usage: chapter \(verbUsage(verb))") }
            return .rename(number: try number(rest[0], verb), title: try title(rest.dropFirst(), verb))
        default:
            guard rest.count == 1 else { throw CommandError("usage: chapter \(verbUsage(verb))") }
            return .remove(number: try number(rest[0], verb))
        }
    }

    /// `chapters reset|detect ...`; nil for `chapters [BOOK]`.
    static func list(_ arguments: [String]) throws(CommandError) -> ChapterLine? {
        switch arguments.first {
        case "reset":
            return .reset(book: arguments.count > 1 ? arguments.dropFirst().joined(separator: " ") : nil)
        case "detect":
            var rest = Array(arguments.dropFirst())
            let confirmed = rest.contains("--yes")
            rest.removeAll { $0 == "--yes" }
            var minimum: Double?
            if let first = rest.first, let seconds = Timecode.seconds(from: first) {
                guard seconds >= 0.5, seconds <= 600 else {
                    throw CommandError("chapters detect: a silence of '\(first)' is out of range: use 0.5 s to 10m (default 2 s)")
                }
                minimum = seconds
                rest.removeFirst()
            }
            return .detect(minimumSilence: minimum, confirmed: confirmed, book: rest.isEmpty ? nil : rest.joined(separator: " "))
        default: return nil
        }
    }

    private static func verbUsage(_ verb: String) -> String {
        switch verb {
        case "add": return "add [TIME] TITLE (TIME in the book: \(Timecode.forms); none: the place heard now)"
        case "rename": return "rename N TITLE (N as 'chapters' lists them)"
        default: return "rm N (N as 'chapters' lists them)"
        }
    }

    private static func number(_ text: String, _ verb: String) throws(CommandError) -> Int {
        guard let number = Int(text), number >= 1 else {
            throw CommandError("chapter \(verb): '\(text)' is not a chapter number: use N as 'chapters' lists them, from 1")
        }
        return number
    }

    private static func title(_ words: ArraySlice<String>, _ verb: String) throws(CommandError) -> String {
        let title = words.joined(separator: " ").trimmingCharacters(in: .whitespaces)
        guard !title.isEmpty else { throw CommandError("chapter \(verb): the title is empty: give the chapter a name") }
        return title
    }
}
