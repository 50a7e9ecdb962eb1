import Dispatch
import Foundation
public import Player

/// The event hooks (`HookDirectory`): a listener of the player's `ListeningEvent`s that runs the
/// hook named after each, with the event in its environment (`HookEnvironment`). The player
/// never waits for a hook: the event is handed to a queue of our own, which only starts the
/// process (`HookProcess`); a hook still running after `timeLimit` is killed. A hook that
/// fails is said once a run, in one line; later failures of the same hook are not.
public final class EventHooks: Sendable {
    private let hooks: [ListeningEvent.Kind: String]
    private let timeLimit: Duration
    private let complain: @Sendable (String) -> Void
    private let inherited: [String]
    /// Starts hooks in the order of their events, off the player's task.
    private let starting = DispatchQueue(label: "abplayer.hooks")
    /// The hooks said to have failed in this run.
    private let failed = Locked(Set<ListeningEvent.Kind>())

    /// The hooks in `directory`, read now. `complain` hears each refusal (now) and failure (on
    /// any thread), one line each.
    public init(directory: String, timeLimit: Duration, complain: @escaping @Sendable (String) -> Void) {
        let found = HookDirectory(directory)
        hooks = found.hooks
        self.timeLimit = timeLimit
        self.complain = complain
        inherited = HookEnvironment.inherited()
        found.refusals.forEach(complain)
    }

    /// Whether any hook is there to run.
    public var isEmpty: Bool { hooks.isEmpty }

    /// Runs the event's hook, if there is one; returns at once (called on the player's task).
    public func take(_ event: ListeningEvent) {
        guard let path = hooks[event.kind] else { return }
        let environment = inherited + HookEnvironment.variables(event)
        let (limit, complain, failed) = (timeLimit, complain, failed)
        let say: @Sendable (String) -> Void = { reason in
            guard failed.withLock({ $0.insert(event.kind).inserted }) else { return }
            complain("abplayer: hook \(path) (\(event.kind.rawValue)): \(reason); its later failures in this run are not said")
        }
        starting.async {
            if let refusal = HookDirectory.refusal(path) { return say("refused: \(refusal)") }
            HookProcess.run(path, environment: environment, limit: limit) { failure in
                if let failure { say(failure.text) }
            }
        }
    }

    /// Starts the hooks of the events taken so far (the player is stopping: its last events'
    /// hooks still run), and returns once they are started, not ended.
    public func close() {
        starting.sync {}
    }
}
