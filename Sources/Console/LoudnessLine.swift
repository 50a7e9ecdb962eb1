import Player

/// `loudness [on | off | default | measure [BOOK]]`: evening out the loudness of the book loaded
/// (`set loudness` and `set loudness-target` are the listener's defaults).
public enum LoudnessLine: Equatable, Sendable {
    case show
    /// The book loaded: on, off, nil: the listener's default.
    case set(Bool?)
    /// Measures BOOK (nil: the book loaded) in the background, even if measured before.
    case measure(book: String?)

    static let usage = "loudness [on | off | default | measure [BOOK]]"

    init(arguments: [String]) throws(CommandError) {
        switch arguments {
        case []: self = .show
        case ["on"]: self = .set(true)
        case ["off"]: self = .set(false)
        case ["default"]: self = .set(nil)
        case ["measure"]: self = .measure(book: nil)
        case _ where arguments.first == "measure": self = .measure(book: arguments.dropFirst().joined(separator: " "))
        default: throw CommandError("loudness: '\(arguments.joined(separator: " "))' is not understood: usage: \(Self.usage)")
        }
    }
}

extension CommandRunner {
    func loudness(_ line: LoudnessLine) throws {
        switch line {
        case .show: try perform(.loudness(.show))
        case let .set(on): try perform(.loudness(.set(on)))
        case let .measure(reference): try perform(.loudness(.measure(bookId: try reference.map { try resolveBook($0).id! })))
        }
    }
}
