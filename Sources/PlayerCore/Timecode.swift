/// Times as people type and read them. Seconds live only here, at the edge; the core works in
/// frames. This is the one parser of typed times: the REPL (`+30`, `seek`, `sleep 30m`, `goto`),
/// the control socket (its lines are REPL lines), `--from`/`--to`/`--at` and `book settings
/// --skip/--sleep-timer` all read times through it, so `30` means 30 seconds everywhere.
///
/// Grammar (no spaces, no sign: a sign is the caller's, as in `+30` or `seek -5m`):
/// ```
/// time    = clock | units
/// clock   = [[hours ":"] minutes ":"] seconds   ; "90", "1:30", "1:02:03.250"; a bare number is seconds;
///                                               ; after the first field, minutes and seconds are below 60;
///                                               ; only the last field has a fraction
/// units   = [number "h"] [number "m"] [number "s"]   ; "90s", "30m", "1h", "1h30m", "1.5m"; at least one,
///                                                    ; largest first, each at most once
/// number  = digits ["." digits]
/// ```
public enum Timecode {
    /// The forms, for messages and help.
    public static let forms = "90, 1:30, 1:02:03.250, 90s, 30m, 1h or 1h30m"

    /// The seconds `text` says, or nil when it is not a time of the grammar above.
    public static func seconds(from text: String) -> Double? {
        clockSeconds(text) ?? unitSeconds(text)
    }

    /// The seconds `text` says, refused with one line naming it, the forms and `range` when it is
    /// not a time or is out of range.
    public static func seconds(_ text: String, in range: ClosedRange<Double> = 0...Double.infinity) throws(RefusedValue) -> Double {
        guard let seconds = seconds(from: text) else {
            throw RefusedValue("'\(text)' is not a time: use \(forms) (\(describe(range)))")
        }
        guard range.contains(seconds) else {
            throw RefusedValue("'\(text)' is out of range: use a time \(describe(range)) (\(forms))")
        }
        return seconds
    }

    /// "from 1s to 24h", or "0 or more" without an upper bound: in the grammar's own forms.
    public static func describe(_ range: ClosedRange<Double>) -> String {
        range.upperBound.isFinite
            ? "from \(compact(seconds: range.lowerBound)) to \(compact(seconds: range.upperBound))"
            : "\(compact(seconds: range.lowerBound)) or more"
    }

    /// "1h30m", "10m", "1s", "0.5s", "0": a time in the unit form, which parses back.
    public static func compact(seconds: Double) -> String {
        guard seconds.isFinite, seconds > 0 else { return "0" }
        let hours = Int(saturating: seconds / 3600)
        let minutes = Int(saturating: seconds.truncatingRemainder(dividingBy: 3600) / 60)
        let rest = seconds.truncatingRemainder(dividingBy: 60)
        var text = ""
        if hours > 0 { text += "\(hours)h" }
        if minutes > 0 { text += "\(minutes)m" }
        if rest > 0 { text += "\(decimal(rest))s" }
        return text
    }

    /// "1:02:03" or "2:03"; "--:--" when unknown. Never NaN.
    public static func format(seconds: Double?) -> String {
        guard let seconds, seconds.isFinite, seconds >= 0 else { return "--:--" }
        let whole = Int(saturating: seconds)
        let (hours, minutes, secs) = (whole / 3600, whole / 60 % 60, whole % 60)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(secs))" : "\(minutes):\(two(secs))"
    }

    /// `[[h:]m:]s[.fraction]`.
    private static func clockSeconds(_ text: String) -> Double? {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(fields.count) else { return nil }
        var total = 0.0
        for (index, field) in fields.enumerated() {
            let isLast = index == fields.count - 1
            guard let value = isLast ? DecimalText.number(field) : DecimalText.wholeNumber(field) else { return nil }
            if index > 0 && value >= 60 { return nil }
            total = total * 60 + value
        }
        return total
    }

    /// Number-and-unit pairs, largest unit first, each unit at most once.
    private static func unitSeconds(_ text: String) -> Double? {
        let factors: [Character: Double] = ["h": 3600, "m": 60, "s": 1]
        let order: [Character] = ["h", "m", "s"]
        var total = 0.0
        var rest = Substring(text)
        var lastUnit = -1
        while let unitIndex = rest.firstIndex(where: { factors[$0] != nil }) {
            let unit = rest[unitIndex]
            let rank = order.firstIndex(of: unit)!
            guard rank > lastUnit, let value = DecimalText.number(rest[..<unitIndex]) else { return nil }
            total += value * factors[unit]!
            lastUnit = rank
            rest = rest[rest.index(after: unitIndex)...]
        }
        return rest.isEmpty && lastUnit >= 0 ? total : nil
    }

    private static func decimal(_ value: Double) -> String {
        value == value.rounded() ? String(Int(saturating: value)) : String(value)
    }
}
