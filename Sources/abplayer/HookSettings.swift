import Console
import Foundation
import PathNames

/// Where the listener's event hooks are and how long one may run (docs/guide.md, "Hooks").
enum HookSettings {
    static let defaultSeconds = 30.0
    static let secondsRange = 0.1...3600.0

    /// `$XDG_CONFIG_HOME/abplayer/hooks`, else `~/.config/abplayer/hooks`; nil when neither is an
    /// absolute path (no hooks then).
    static func directory(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        XDGDirectory.path("XDG_CONFIG_HOME", default: ".config", environment: environment).map { $0 + "/abplayer/hooks" }
    }

    /// `ABPLAYER_HOOK_TIMEOUT` (seconds), else 30 s; a value that is not one says so in a line
    /// and the default applies.
    static func timeLimit(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Duration {
        guard let text = environment["ABPLAYER_HOOK_TIMEOUT"] else { return .seconds(defaultSeconds) }
        guard let seconds = Double(text), secondsRange.contains(seconds) else {
            printError("abplayer: ABPLAYER_HOOK_TIMEOUT=\(text) is not a number of seconds from 0.1 to 3600; hooks get \(Int(defaultSeconds)) s")
            return .seconds(defaultSeconds)
        }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }
}

extension PlayerService {
    /// The listener's event hooks, run while this player runs (the REPL, `-c`, `--daemon`, `listen`);
    /// their problems are said above the prompt at the REPL's terminal (`aboveThePrompt`).
    func runListenersHooks(aboveThePrompt: Bool) {
        guard let directory = HookSettings.directory() else { return }
        runHooks(in: directory, timeLimit: HookSettings.timeLimit(), aboveThePrompt: aboveThePrompt)
    }
}
