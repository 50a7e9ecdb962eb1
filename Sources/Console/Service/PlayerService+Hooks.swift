import Foundation
import Player

extension PlayerService {
    /// Runs the event hooks in `directory` (`EventHooks`, read now) on the player's events from
    /// now until the service closes; a hook still running then is left to end on its own. Its
    /// refusals and failures are said as the service's other problems (the REPL above its prompt).
    public func runHooks(in directory: String, timeLimit: Duration) {
        let inputs = inputs
        let hooks = EventHooks(directory: directory, timeLimit: timeLimit) { line in
            // Inputs no longer taken (the service's stream ended): the line still goes out.
            if case .enqueued = inputs.yield(.hookProblem(line)) { return }
            StandardLines().complain(line)
        }
        guard !hooks.isEmpty else { return }
        broadcast.addListener { hooks.take($0) }
        stopAtClose { hooks.close() }
    }
}
