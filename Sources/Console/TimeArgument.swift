public import PlayerCore

/// Where `seek` goes, as typed. Times are `Timecode`'s, the one grammar of typed times.
public enum TimeArgument {
    /// "1:02:03" (from the start of the book), "+90", "-5m" (from here), "50%".
    public static func seekTarget(_ text: String) -> SeekTarget? {
        if text.hasSuffix("%") {
            guard let share = DecimalText.number(text.dropLast()), share <= 100 else { return nil }
            return .percent(share)
        }
        if let sign = text.first, sign == "+" || sign == "-" {
            guard let amount = Timecode.seconds(from: String(text.dropFirst())) else { return nil }
            return .relative(seconds: sign == "+" ? amount : -amount)
        }
        return Timecode.seconds(from: text).map { .absolute(seconds: $0) }
    }

    /// What `seek` says to a target it cannot read.
    static let seekForms = "use a time from the start (\(Timecode.forms)), +/- an amount (+90, -5m) or a share from 0% to 100% (50%)"
}
