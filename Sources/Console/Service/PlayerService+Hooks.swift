import Foundation
import Player

extension PlayerService {
    /// Runs the event hooks in `directory` (`EventHooks`, read now) on the player's events from
    /// now until the service closes; a hook still running then is left to end on its own. Its
    /// refusals and failures go straight to standard error, or, at the REPL's terminal
    /// (`aboveThePrompt`), to the service to be said above the prompt while it runs. (A script's
    /// last hook fails while the service closes and takes no more inputs: said through them, it
    /// was lost.)
    public func runHooks(in directory: String, timeLimit: Duration, aboveThePrompt: Bool) {
        let inputs = inputs
        let serving = Locked(aboveThePrompt)
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
