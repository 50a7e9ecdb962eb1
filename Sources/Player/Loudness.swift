public import Library
public import PlayerCore

/// Evening out books' loudness: each book is played at a gain that brings its integrated loudness
/// (EBU R128, measured once and stored) to the listener's target. Values and rules only; the
/// player's part is `BookLoudness`.
public enum Loudness {
    /// The target when the listener set none: -18 LUFS, a spoken-word level most players and
    /// podcast guidelines (-16 to -19) agree on, with headroom for the limiter.
    public static let defaultTargetLUFS = -18.0
    /// `set loudness-target`: quieter than -30 is inaudible next to other audio, louder than
    /// -10 would need heavy limiting.
    public static let targetRange = -30.0 ... -10.0
    /// The most a book is raised or lowered: a book recorded 20 dB too quiet is evened out, a
    /// near-silent recording is not raised into a wall of hiss.
    public static let maxGainDecibels = 25.0

    /// The gain that brings `reading` to `target`, in dB; 0 for silence.
    public static func gain(for reading: LoudnessReading, target: Double) -> Double {
        guard let integrated = reading.integratedLUFS else { return 0 }
        return min(maxGainDecibels, max(-maxGainDecibels, target - integrated))
    }

    /// Whether a book with these settings is evened out: its own setting, else the listener's,
    /// else on.
    public static func isOn(_ settings: BookSettings, _ preferences: PlayerPreferences) -> Bool {
        settings.loudness ?? preferences.loudness ?? true
    }

    /// "-18", "-20.5" as typed, checked against `targetRange`.
    public static func target(_ text: String) throws(RefusedValue) -> Double {
        guard let value = Double(text), value.isFinite else {
            throw RefusedValue("'\(text)' is not a loudness target: use LUFS from -30 to -10 (-18 is the default)")
        }
        guard targetRange.contains(value) else {
            throw RefusedValue("'\(text)' is out of range: use LUFS from -30 to -10 (-18 is the default)")
        }
        return value
    }

    /// "+4.5 dB", "-2 dB", "0 dB".
    public static func decibelsText(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        let text = rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
        return (rounded > 0 ? "+" : "") + text + " dB"
    }
}

/// Where the book loaded stands with its loudness.
public enum LoudnessState: Sendable, Equatable {
    /// Played as recorded (the book's setting or the listener's).
    case off
    /// Never measured, and not being measured (a book not loaded).
    case notMeasured
    /// Being measured in the background; played at 0 dB until it is known.
    case measuring
    /// Known: played at `gain` dB.
    case measured(LoudnessReading, gain: Double)
    /// Its files could not be measured: played as recorded.
    case failed(String)

    /// What `status` says: "gain +4.5 dB", "loudness measuring"...
    public var text: String {
        switch self {
        case .off: "loudness off"
        case .notMeasured: "loudness not measured yet"
        case .measuring: "loudness measuring"
        case let .measured(_, gain): "gain \(Loudness.decibelsText(gain))"
        case .failed: "loudness not measured (failed)"
        }
    }
}

/// `loudness ...` in the REPL.
public enum LoudnessCommand: Equatable, Sendable {
    /// What the book loaded is at.
    case show
    /// The book loaded: on, off, nil: the listener's default.
    case set(Bool?)
    /// Measures a book now (nil: the one loaded), even if measured before.
    case measure(bookId: Int64?)
}

/// What `loudness` reports about a book.
public struct LoudnessReport: Sendable, Equatable {
    public let book: String
    public let state: LoudnessState
    /// Whose setting it is: "book" or "default".
    public let source: String
    public let targetLUFS: Double

    public init(book: String, state: LoudnessState, source: String, targetLUFS: Double) {
        self.book = book
        self.state = state
        self.source = source
        self.targetLUFS = targetLUFS
    }

    /// "loudness on (default): -23.1 LUFS, peak -3.2 dBTP, gain +5.1 dB to -18 LUFS".
    public var text: String {
        let whose = source == "book" ? "this book" : "default"
        switch state {
        case .off: return "\(book): loudness off (\(whose)), played as recorded"
        case .notMeasured: return "\(book): loudness on (\(whose)), not measured yet: measured when it first plays, or by 'loudness measure'"
        case .measuring: return "\(book): loudness on (\(whose)), measuring in the background; played as recorded until known"
        case let .failed(reason): return "\(book): loudness on (\(whose)), but it could not be measured: \(reason)"
        case let .measured(reading, gain):
            let loudness = reading.integratedLUFS.map { "\(Self.number($0)) LUFS" } ?? "silent"
            let peak = reading.peakDBTP.map { ", peak \(Self.number($0)) \(reading.isTruePeak ? "dBTP" : "dBFS")" } ?? ""
            return "\(book): loudness on (\(whose)): \(loudness)\(peak), gain \(Loudness.decibelsText(gain)) to \(SettingText.number(targetLUFS)) LUFS"
        }
    }

    static func number(_ value: Double) -> String { String((value * 10).rounded() / 10) }
}
