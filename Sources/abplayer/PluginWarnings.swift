import Console
import Synchronization

/// Where plugins' warnings go: each line once per run (a file cut short is said when it is
/// imported or first played, not again at every play, loudness measure or loop of a repeat),
/// to standard error until a running player takes them; then its face says them (the REPL above
/// its prompt, never into the line being typed; a screen on its message line).
final class PluginWarnings: Sendable {
    private struct State {
        var said: Set<String> = []
        var player: AsyncStream<ConsoleInput>.Continuation?
    }
    private let state = Mutex(State())

    /// A warning line (already `abplayer: `-prefixed), unless it was said before in this run.
    func say(_ line: String) {
        let player: AsyncStream<ConsoleInput>.Continuation?? = state.withLock { state in
            guard state.said.insert(line).inserted else { return .none }
            return .some(state.player)
        }
        switch player {
        case .none: return
        case let .some(player?):
            if case .enqueued = player.yield(.pluginWarning(line)) { return }
            printError(line)
        case .some(nil): printError(line)
        }
    }

    /// From now on warnings go to the running player's inputs (until it stops taking them).
    func sendToPlayer(_ inputs: AsyncStream<ConsoleInput>.Continuation) {
        state.withLock { $0.player = inputs }
    }
}
