/// Why the player did not do what it was asked: one line saying what was wrong and what is
/// right (the front end adds which command it was).
public struct PlayerError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
