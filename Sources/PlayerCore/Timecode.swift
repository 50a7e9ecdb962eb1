/// Times as people type and read them: "90", "1:30", "1:02:03.250". Seconds live only here, at the
/// edge; the core works in frames.
public enum Timecode {
    /// Parses `[[h:]m:]s[.fraction]`; nil for anything else (negative, empty, minutes >= 60 after
    /// an hour field, and so on).
    public static func seconds(from text: String) -> Double? {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(fields.count) else { return nil }
        var total = 0.0
        for (index, field) in fields.enumerated() {
            let isLast = index == fields.count - 1
            guard !field.isEmpty, field.allSatisfy({ $0.isASCII && ($0.isNumber || (isLast && $0 == ".")) }),
                  let value = Double(field) else { return nil }
            if index > 0 && value >= 60 { return nil }
            total = total * 60 + value
        }
        return total
    }

    /// "1:02:03" or "2:03"; "--:--" when unknown. Never NaN.
    public static func format(seconds: Double?) -> String {
        guard let seconds, seconds.isFinite, seconds >= 0 else { return "--:--" }
        let whole = Int(seconds)
        let (hours, minutes, secs) = (whole / 3600, whole / 60 % 60, whole % 60)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(secs))" : "\(minutes):\(two(secs))"
    }
}
