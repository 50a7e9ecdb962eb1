import Foundation
import TestSupport
import Testing

/// abplayer on a real terminal: a tmux server of its own (a private socket) running it in a
/// window of the given size, typed into with send-keys and read with capture-pane.
struct TmuxTerminal {
    let socket: String
    /// The tmux server's process, to end it for certain at stop.
    let serverPID: pid_t?

    /// `then`: a shell command run in the window after abplayer ends (to see what a shell's
    /// prompt would see). `wrapper`: a program run as the window's command with abplayer's path
    /// and arguments as its own (to see how abplayer ends).
    init(_ abplayer: AbplayerProcess, name: String, arguments: [String], environment extra: [String: String] = [:],
         columns: Int = 120, rows: Int = 40, then after: String? = nil, wrapper: String? = nil) throws {
        socket = abplayer.home.appending(path: "\(name).tmux").path
        var environment = abplayer.environment.merging(extra) { $1 }
        environment["XDG_STATE_HOME"] = abplayer.home.appending(path: "state").path
        environment["LANG"] = "C.UTF-8"
        // The test runner may run with NO_COLOR set; empty means colour allowed.
        environment["NO_COLOR"] = extra["NO_COLOR"] ?? ""
        let assignments = environment.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        let command = "env \(assignments) " + (wrapper.map { "'\($0)' " } ?? "") + "'\(BuildProducts.abplayer.path)' " + arguments.map { "'\($0)'" }.joined(separator: " ")
            + (after.map { "; " + $0 } ?? "")
        // The tmux server this forks keeps every descriptor it inherits open, among them the
        // pipes Foundation watches to see the child exit: so close all but 0-2 first, and send
        // its output nowhere, or the start never "ends".
        let tmuxCommand = ["tmux", "-S", socket, "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", command]
            .map { "'" + $0.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }.joined(separator: " ")
        let script = #"for fd in $(ls /proc/$$/fd); do [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done; "#
            + "exec \(tmuxCommand) >/dev/null 2>&1 </dev/null"
        _ = try Command.run("/bin/bash", ["-c", script], timeout: 30).requireSuccess()
        serverPID = (try? Command.run("tmux", ["-S", socket, "display-message", "-p", "#{pid}"], timeout: 30))
            .flatMap { pid_t($0.stdoutString.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    @discardableResult
    func tmux(_ arguments: [String]) throws -> CommandResult {
        try Command.run("tmux", ["-S", socket] + arguments, timeout: 30)
    }

    func send(_ keys: String...) throws {
        _ = try tmux(["send-keys"] + keys).requireSuccess()
    }

    /// The visible screen; with `escapes`, its colour sequences kept. (capture-pane drops the
    /// spaces at the ends of lines: look for text without them.)
    func screen(escapes: Bool = false) -> String {
        (try? tmux(["capture-pane", "-p"] + (escapes ? ["-e"] : [])))?.stdoutString ?? ""
    }

    /// Waits (blocking this test's own thread) until `condition` holds for the screen; the
    /// screen then, nil after `timeout` seconds (measured).
    func waitUntil(timeout: Double = 20, escapes: Bool = false, _ condition: (String) -> Bool) -> String? {
        let clock = ContinuousClock()
        let start = clock.now
        while (clock.now - start).seconds < timeout {
            let shown = screen(escapes: escapes)
            if condition(shown) { return shown }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return nil
    }

    func waitFor(_ text: String, timeout: Double = 20) -> String? {
        waitUntil(timeout: timeout) { $0.contains(text) }
    }

    /// `status --json` typed at the prompt, read back (wrapped lines joined).
    func status() throws -> ReplTests.StatusJSON {
        func jsonLines() -> [Substring] {
            ((try? tmux(["capture-pane", "-p", "-J", "-S", "-"]))?.stdoutString ?? "")
                .split(separator: "\n").filter { $0.hasPrefix("{") }
        }
        let before = jsonLines().count
        try send("status --json", "Enter")
        let clock = ContinuousClock()
        let start = clock.now
        while jsonLines().count <= before, (clock.now - start).seconds < 20 { Thread.sleep(forTimeInterval: 0.1) }
        let line = try #require(jsonLines().last, "\(screen())")
        return try JSONDecoder().decode(ReplTests.StatusJSON.self, from: Data(line.utf8))
    }

    /// Leaves a full screen (q), then Ctrl-D on an empty line quits abplayer, which ends the
    /// session and the server (kill-server alone left abplayer running here, though SIGHUP
    /// itself ends it). A server still there after kill-server is killed: one such server, its
    /// pane's shell waiting at a prompt, ignored kill-server and SIGTERM and outlived the run.
    func stop() {
        _ = try? tmux(["send-keys", "q"])
        _ = try? tmux(["send-keys", "C-u", "C-d"])
        let clock = ContinuousClock()
        let start = clock.now
        while (try? tmux(["has-session"]))?.status == 0, (clock.now - start).seconds < 10 {
            Thread.sleep(forTimeInterval: 0.1)
        }
        _ = try? tmux(["kill-server"])
        guard let serverPID else { return }
        let killed = clock.now
        while kill(serverPID, 0) == 0, (clock.now - killed).seconds < 5 { Thread.sleep(forTimeInterval: 0.1) }
        if kill(serverPID, 0) == 0 { kill(serverPID, SIGKILL) }
    }
}
