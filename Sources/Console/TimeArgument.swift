public import PlayerCore

/// The times people type after `seek`, `+`/`-` and `goto`.
public enum TimeArgument {
    /// A length: "90", "1:30", "1:02:03", "90s", "5m", "1.5m", "1h30m".
    public static func duration(_ text: String) -> Double? {
        if let seconds = Timecode.seconds(from: text) { return seconds }
        // Number-and-unit pairs, largest unit first, each unit at most once.
        var total = 0.0
        var number = ""
        var units: [Character] = []
        for character in text {
            if character.isASCII && (character.isNumber || character == ".") {
                number.append(character)
            } else if let factor = ["h": 3600.0, "m": 60, "s": 1][character], let value = Double(number) {
                if let last = units.last, "hms".firstIndex(of: last)! >= "hms".firstIndex(of: character)! { return nil }
                total += value * factor
                units.append(character)
                number = ""
            } else {
                return nil
            }
        }
        return number.isEmpty && !units.isEmpty ? total : nil
    }

    /// "1:02:03" (from the start of the book), "+90", "-5m" (from here), "50%".
    public static func seekTarget(_ text: String) -> SeekTarget? {
        if text.hasSuffix("%") {
            guard let share = Double(text.dropLast()), share >= 0, share <= 100,
                  text.dropLast().allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) else { return nil }
            return .percent(share)
        }
        if let sign = text.first, sign == "+" || sign == "-" {
            guard let amount = duration(String(text.dropFirst())) else { return nil }
            return .relative(seconds: sign == "+" ? amount : -amount)
        }
        return duration(text).map { .absolute(seconds: $0) }
    }
}
