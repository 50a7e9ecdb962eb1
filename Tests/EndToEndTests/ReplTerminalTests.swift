import Foundation
import TestSupport
import Testing

/// The REPL on a real terminal: a tmux session (a pseudo-terminal) typed into with send-keys and
/// read with capture-pane.
@Suite(.serialized) struct ReplTerminalTests {
    /// One tmux server of its own (a private socket), running abplayer in a 120x40 window.
    struct Terminal {
        let socket: String

        init(_ abplayer: AbplayerProcess, library: String, name: String, output: String = "null",
             environment extra: [String: String] = [:]) throws {
            socket = abplayer.home.appending(path: "\(name).tmux").path
            var environment = abplayer.environment.merging(extra) { $1 }
            environment["XDG_STATE_HOME"] = abplayer.home.appending(path: "state").path
            environment["LANG"] = "C.UTF-8"
            let assignments = environment.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
            let command = "env \(assignments) '\(BuildProducts.abplayer.path)' --output '\(output)' --library '\(library)'"
            // The tmux server this forks keeps every descriptor it inherits open, among them
            // the pipes Foundation watches to see the child exit: so close all but 0-2 first,
            // and send its output nowhere, or the start never "ends".
            let tmuxCommand = ["tmux", "-S", socket, "new-session", "-d", "-x", "120", "-y", "40", command]
                .map { "'" + $0.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }.joined(separator: " ")
            let script = #"for fd in $(ls /proc/$$/fd); do [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done; "#
                + "exec \(tmuxCommand) >/dev/null 2>&1 </dev/null"
            _ = try Command.run("/bin/bash", ["-c", script], timeout: 30).requireSuccess()
        }

        @discardableResult
        func tmux(_ arguments: [String]) throws -> CommandResult {
            try Command.run("tmux", ["-S", socket] + arguments, timeout: 30)
        }

        func send(_ keys: String...) throws {
            _ = try tmux(["send-keys"] + keys).requireSuccess()
        }

        /// The screen's text.
        func screen() -> String { (try? tmux(["capture-pane", "-p"]))?.stdoutString ?? "" }

        /// (capture-pane drops the spaces at the ends of lines: look for text without them.)
        /// Waits (blocking this test's own thread) until the screen shows `text`; the screen
        /// when it does, nil after `timeout` seconds (measured).
        func waitFor(_ text: String, timeout: Double = 20) throws -> String? {
            let clock = ContinuousClock()
            let start = clock.now
            while (clock.now - start).secondsValue < timeout {
                let shown = screen()
                if shown.contains(text) { return shown }
                Thread.sleep(forTimeInterval: 0.1)
            }
            return nil
        }

        /// Ctrl-D on an empty line quits abplayer, which ends the session and the server
        /// (kill-server alone left abplayer running here, though SIGHUP itself ends it).
        func stop() {
            _ = try? tmux(["send-keys", "C-u", "C-d"])
            let clock = ContinuousClock()
            let start = clock.now
            while (try? tmux(["has-session"]))?.status == 0, (clock.now - start).secondsValue < 10 {
                Thread.sleep(forTimeInterval: 0.1)
            }
            _ = try? tmux(["kill-server"])
        }
    }

    @Test func thePromptCompletesQuotedNamesTogglesOnEnterAndKeepsHistoryAcrossRuns() throws {
        // Given a library with "Ender's Game" on the shelf "Science Fiction", and the REPL on a terminal
        let (abplayer, library) = try ReplTests.library("repl-terminal")
        let first = try Terminal(abplayer, library: library, name: "first")
        defer { first.stop() }
        #expect(try first.waitFor("abplayer />") != nil, "\(first.screen())")

        // When a shelf name and a book name with an apostrophe are completed with Tab
        try first.send("cd Sci", "Tab")
        #expect(try first.waitFor(#"abplayer /> cd "Science Fiction""#) != nil, "\(first.screen())")
        try first.send("Enter")
        // Then the prompt shows the shelf
        #expect(try first.waitFor("abplayer /Science Fiction>") != nil, "\(first.screen())")
        try first.send("play End", "Tab")
        #expect(try first.waitFor(#"abplayer /Science Fiction> play "Ender's Game""#) != nil, "\(first.screen())")
        try first.send("Enter")
        #expect(try first.waitFor("playing #1 Ender's Game from 0:00") != nil, "\(first.screen())")

        // and an empty line pauses what plays
        try first.send("status", "Enter")
        #expect(try first.waitFor("Ender's Game — playing") != nil, "\(first.screen())")
        try first.send("Enter")
        try first.send("status", "Enter")
        #expect(try first.waitFor("Ender's Game — paused") != nil, "\(first.screen())")
        try first.send("quit", "Enter")

        // And the next run has the lines typed before in its history (Up goes back through them)
        let historyFile = abplayer.home.appending(path: "state/abplayer/history")
        let clock = ContinuousClock()
        let start = clock.now
        while !((try? String(contentsOf: historyFile, encoding: .utf8))?.contains("quit") ?? false), (clock.now - start).secondsValue < 10 {
            Thread.sleep(forTimeInterval: 0.1)
        }
        let second = try Terminal(abplayer, library: library, name: "second")
        defer { second.stop() }
        #expect(try second.waitFor("abplayer />") != nil, "\(second.screen())")
        try second.send("Up", "Up")
        #expect(try second.waitFor("abplayer /> status") != nil, "\(second.screen())")
        try second.send("Up")
        #expect(try second.waitFor(#"abplayer /> play "Ender's Game""#) != nil, "\(second.screen())")
    }
}
