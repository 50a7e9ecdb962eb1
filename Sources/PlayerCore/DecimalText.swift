/// Plain decimal numbers as typed: "90", "1.25", ".5". `Double(_:)` alone would also take "1e3",
/// "nan", "inf", "0x1p3" and a sign, none of which is a speed, a volume or a time.
public enum DecimalText {
    /// `digits ["." digits]` or `"." digits`; nil for anything else.
    public static func number(_ text: Substring) -> Double? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard !text.isEmpty, parts.allSatisfy(isDigits(_:)) || (parts.count == 2 && parts[0].isEmpty && isDigits(parts[1])) else {
            return nil
        }
        return Double(text)
    }

    /// Digits only.
    public static func wholeNumber(_ text: Substring) -> Double? {
        isDigits(text) ? Double(text) : nil
    }

    private static func isDigits(_ text: Substring) -> Bool {
        !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
