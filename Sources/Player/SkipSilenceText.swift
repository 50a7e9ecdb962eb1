public import Library
public import PlayerCore

/// Skip silence as people type it, the same in the REPL (`silence skip`, `set silence`) and in
/// `book settings --skip-silence`: on (the 600 ms minimum), off, or the minimum in milliseconds
/// ("800" or "800ms").
public enum SkipSilenceText {
    public static let forms = "use on, off or the shortest silence to shorten in milliseconds, \(SkipSilence.minimumMsRange.lowerBound)-\(SkipSilence.minimumMsRange.upperBound) (e.g. 800 or 800ms)"

    public static func parse(_ text: String) throws(RefusedValue) -> SkipSilence {
        switch text {
        case "on": return .on(minimumMs: SkipSilence.defaultMinimumMs)
        case "off": return .off
        default:
            let number = text.hasSuffix("ms") ? String(text.dropLast(2)) : text
            guard let milliseconds = Int(number) else { throw RefusedValue("'\(text)' is not a skip silence setting: \(forms)") }
            guard SkipSilence.minimumMsRange.contains(milliseconds) else { throw RefusedValue("'\(text)' is out of range: \(forms)") }
            return .on(minimumMs: milliseconds)
        }
    }

    /// "on (silences of 600 ms or more)", "off".
    public static func text(_ setting: SkipSilence) -> String {
        switch setting {
        case .off: "off"
        case let .on(minimumMs): "on (silences of \(minimumMs) ms or more)"
        }
    }

    /// The engine's setting for a book's: nil when off.
    static func engineValue(_ setting: SkipSilence) -> SilenceSkipping? {
        setting.minimumSeconds.map { SilenceSkipping(minimumSeconds: $0) }
    }
}
