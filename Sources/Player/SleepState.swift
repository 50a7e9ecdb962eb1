import PlayerCore

/// The sleep timer as `status` reports it, when it is on. Its JSON form is the words `sleep`
/// and `status` say ("12:34 left", "end of chapter"), as it always was: a client of another
/// version reads the same string.
public enum SleepState: Equatable, Sendable {
    /// Counting down; whole seconds left, rounded up (a timer just set to 30 minutes says 30:00).
    case counting(secondsLeft: Double)
    case endOfChapter
    case endOfItem
    /// The last seconds: the book is fading out.
    case fading

    /// "12:34 left", "end of chapter", "end of item", "fading out".
    public var text: String {
        switch self {
        case let .counting(seconds): "\(Timecode.format(seconds: seconds)) left"
        case .endOfChapter: "end of chapter"
        case .endOfItem: "end of item"
        case .fading: "fading out"
        }
    }

    /// The state `text` says; nil for words that are none.
    public init?(text: String) {
        switch text {
        case "end of chapter": self = .endOfChapter
        case "end of item": self = .endOfItem
        case "fading out": self = .fading
        default:
            guard text.hasSuffix(" left"), let seconds = Timecode.seconds(from: String(text.dropLast(" left".count))) else { return nil }
            self = .counting(secondsLeft: seconds)
        }
    }
}

extension SleepState: Codable {
    public init(from decoder: any Swift.Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let state = SleepState(text: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "'\(text)' is not a sleep timer's state"))
        }
        self = state
    }

    public func encode(to encoder: any Swift.Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
