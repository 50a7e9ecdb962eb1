/// A value the user typed that was refused: one line naming the value, the forms accepted and the
/// range, e.g. `'0.3' is out of range: use a speed from 0.5 to 4.0 (...)`. The caller adds what it
/// was for (`speed: `, `abplayer: --speed: `). Values out of range are refused, never clamped.
public struct RefusedValue: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
