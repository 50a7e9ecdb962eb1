/// A command from another thread (MPRIS) for the task that owns the controller, with the way to
/// answer it there.
public struct PlayerRequest: Sendable {
    public enum Action: Sendable, Equatable {
        case perform(PlayerCommand)
        /// The whole player is asked to stop (MPRIS's Quit): the owner saves and exits.
        case quit
    }

    public let action: Action
    public let reply: @Sendable (Result<PlayerOutcome, PlayerError>) -> Void

    public init(_ action: Action, reply: @escaping @Sendable (Result<PlayerOutcome, PlayerError>) -> Void) {
        self.action = action
        self.reply = reply
    }
}
