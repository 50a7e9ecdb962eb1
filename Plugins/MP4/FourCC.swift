/// A box type or handler code: four bytes, shown as Latin-1 (so `©nam` reads as it is written).
public struct FourCC: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let value: UInt32

    public init(_ value: UInt32) { self.value = value }

    /// Four Latin-1 characters; anything else is a programming error.
    public init(stringLiteral text: String) {
        let scalars = Array(text.unicodeScalars)
        precondition(scalars.count == 4 && scalars.allSatisfy { $0.value < 256 }, "a FourCC is four Latin-1 characters")
        value = scalars.reduce(0) { $0 << 8 | $1.value }
    }

    public var description: String {
        String(String.UnicodeScalarView([24, 16, 8, 0].map { Unicode.Scalar(UInt8(truncatingIfNeeded: value >> $0)) }))
    }
}
