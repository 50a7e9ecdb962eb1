import Foundation
import Player

extension PlayerService {
    /// Runs the event hooks in `directory` (`EventHooks`, read now) on the player's events from
    /// now until the service closes; a hook still running then is left to end on its own. Its
    /// refusals and failures are said as the service's other problems (the REPL above its prompt)
    /// while the service runs, and straight to standard error once it closed (the last events
    /// of a script).
    public func runHooks(in directory: String, timeLimit: Duration) {
        let inputs = inputs
        let serving = Locked(true)
        let hooks = EventHooks(directory: directory, timeLimit: timeLimit) { line in
            if serving.withLock({ $0 }), case .enqueued = inputs.yield(.hookProblem(line)) { return }
            StandardLines().complain(line)
        }
        guard !hooks.isEmpty else { return }
        broadcast.addListener { hooks.take($0) }
        stopAtClose {
            serving.withLock { $0 = false }
            hooks.close()
        }
    }
}
