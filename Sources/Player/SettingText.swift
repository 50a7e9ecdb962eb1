public import PlayerCore
import Library

/// A book's settings as people type them, in one set of units everywhere — volume in percent,
/// speed as a factor, the skip interval and the sleep timer as times (`Timecode`) — and the ranges
/// they must be in. The REPL, the control socket, `play` and `book settings` parse through here, so
/// they accept the same forms and refuse the same values with the same line; the library's CHECKs
/// hold the same ranges (LibrarySchema v4).
public enum SettingText {
    /// Percent; above 100 the signal may clip.
    public static let volumeRange = PlaybackEngine.volumeRange
    /// Half to four times, the pitch kept.
    public static let speedRange = PlaybackEngine.speedRange
    /// The book's skip interval: what `+`/`-` without an amount and the player screen's arrows skip.
    public static let skipRange = SettingRanges.skipSeconds
    /// `sleep 30m`, `--sleep-timer 30m`.
    public static let sleepRange = SettingRanges.sleepSeconds
    /// `rewind MAX`: the most auto-rewind goes back (the library's CHECK: at most 600 s).
    public static let rewindRange = 1.0...600.0

    /// "80" or "80%".
    public static func volume(_ text: String) throws(RefusedValue) -> Double {
        let number = text.hasSuffix("%") ? text.dropLast() : Substring(text)
        guard let percent = DecimalText.number(number) else {
            throw RefusedValue("'\(text)' is not a volume: \(volumeForms)")
        }
        try check(volume: percent, as: text)
        return percent
    }

    /// "1.25" or "1.25x".
    public static func speed(_ text: String) throws(RefusedValue) -> Double {
        let number = text.hasSuffix("x") ? text.dropLast() : Substring(text)
        guard let speed = DecimalText.number(number) else {
            throw RefusedValue("'\(text)' is not a speed: \(speedForms)")
        }
        try check(speed: speed, as: text)
        return speed
    }

    /// "+0.1", "-5": a step up or down (`speed +0.1`, `volume -5`); nil when `text` has no sign.
    /// A step is at most the whole of `range`.
    public static func step(_ text: String, in range: ClosedRange<Double>, unit: String) throws(RefusedValue) -> Double? {
        guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
        var number = text.dropFirst()
        if number.hasSuffix(unit) { number = number.dropLast(unit.count) }
        guard let size = DecimalText.number(number), size <= range.upperBound - range.lowerBound else {
            throw RefusedValue("'\(text)' is not a step: use +N or -N, at most \(Self.number(range.upperBound - range.lowerBound))")
        }
        return sign == "+" ? size : -size
    }

    public static func check(volume percent: Double, as text: String? = nil) throws(RefusedValue) {
        guard volumeRange.contains(percent) else {
            throw RefusedValue("'\(text ?? number(percent))' is out of range: \(volumeForms)")
        }
    }

    public static func check(speed: Double, as text: String? = nil) throws(RefusedValue) {
        guard speedRange.contains(speed) else {
            throw RefusedValue("'\(text ?? number(speed))' is out of range: \(speedForms)")
        }
    }

    public static func skip(_ text: String) throws(RefusedValue) -> Double { try Timecode.seconds(text, in: skipRange) }
    /// A bare number is minutes (`sleep 30`: half an hour, as every audiobook app's timer
    /// counts); `45s`, `1h`, `1:15:00` say their unit.
    public static func sleep(_ text: String) throws(RefusedValue) -> Double {
        guard let minutes = DecimalText.number(Substring(text)) else { return try Timecode.seconds(text, in: sleepRange) }
        guard sleepRange.contains(minutes * 60) else {
            throw RefusedValue("'\(text)' is out of range: use minutes (30) or a time \(Timecode.describe(sleepRange))")
        }
        return minutes * 60
    }
    public static func rewind(_ text: String) throws(RefusedValue) -> Double { try Timecode.seconds(text, in: rewindRange) }

    /// "80 %".
    public static func volumeText(_ percent: Double) -> String { "\(number(percent)) %" }
    /// "80%", "120% (boost)": a volume as shown wherever it is shown (status, `volume`, the
    /// player screen); past 100 % the signal is amplified and may clip, so it says so.
    public static func volumeLabel(_ percent: Double) -> String {
        "\(number(percent))%" + (percent > 100 ? " (boost)" : "")
    }
    /// "1.25x".
    public static func speedText(_ speed: Double) -> String { "\(number(speed))x" }
    /// "30 s", "1.5 s".
    public static func secondsText(_ seconds: Double) -> String { "\(number(seconds)) s" }

    static let volumeForms = "use a volume from \(number(volumeRange.lowerBound)) to \(number(volumeRange.upperBound)) percent (80 or 80%)"
    static let speedForms = "use a speed from \(number(speedRange.lowerBound)) to \(number(speedRange.upperBound)) (1.25 or 1.25x; 1 is normal)"

    /// At most two decimals, no trailing zeros: 80, 1.25, 0.5 (a speed stepped by 0.1 keys may be
    /// 1.2000000000000002).
    static func number(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e9 else { return "\(value)" }
        let hundredths = (value * 100).rounded()
        return hundredths.truncatingRemainder(dividingBy: 100) == 0 ? String(Int(hundredths / 100)) : String(hundredths / 100)
    }
}
