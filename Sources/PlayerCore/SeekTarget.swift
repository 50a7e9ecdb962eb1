/// Where a seek goes: to a time in the book, by an amount from here, or to a share of the book.
public enum SeekTarget: Equatable, Sendable {
    case absolute(seconds: Double)
    case relative(seconds: Double)
    case percent(Double)
}
