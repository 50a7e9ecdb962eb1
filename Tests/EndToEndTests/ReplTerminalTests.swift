import Foundation
import TestSupport
import Testing

/// The REPL on a real terminal: a tmux session (a pseudo-terminal) typed into with send-keys and
/// read with capture-pane.
@Suite(.serialized) struct ReplTerminalTests {
    /// The REPL on a 120x40 terminal, playing through `output`.
    static func terminal(_ abplayer: AbplayerProcess, library: String, name: String, output: String = "null",
                         environment: [String: String] = [:]) throws -> TmuxTerminal {
        try TmuxTerminal(abplayer, name: name, arguments: ["--output", output, "--library", library], environment: environment)
    }

    @Test func ctrlDAtThePromptLeavesTheShellPromptOnALineOfItsOwn() throws {
        // Given the REPL at its prompt, run from a shell that prints its own prompt afterwards
        let (abplayer, library) = try ReplTests.library("repl-ctrl-d")
        let terminal = try TmuxTerminal(abplayer, name: "ctrl-d", arguments: ["--output", "null", "--library", library],
                                        then: "printf 'SHELL$ '; read -r line")
        defer { terminal.stop() }
        #expect(terminal.waitFor("abplayer />") != nil, "\(terminal.screen())")

        // When Ctrl-D is pressed
        try terminal.send("C-d")

        // Then the shell's prompt starts a line, not the end of abplayer's
        let screen = terminal.waitFor("SHELL$") ?? terminal.screen()
        let lines = screen.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("SHELL$") }, "\(screen)")
        #expect(!lines.contains { $0.contains("abplayer />") && $0.contains("SHELL$") }, "\(screen)")
    }

    @Test func ctrlCClearsTheLineAndAtAnEmptyPromptSaysHowToQuit() throws {
        // Given the REPL at its prompt with a half-typed line
        let (abplayer, library) = try ReplTests.library("repl-ctrl-c")
        let terminal = try TmuxTerminal(abplayer, name: "ctrl-c", arguments: ["--output", "null", "--library", library],
                                        then: "printf 'SHELL$ '; read -r line")
        defer { terminal.stop() }
        #expect(terminal.waitFor("abplayer />") != nil, "\(terminal.screen())")
        try terminal.send("play Something I mistyped")
        #expect(terminal.waitFor("mistyped") != nil, "\(terminal.screen())")

        // When Ctrl-C is pressed, then, once it is seen, Ctrl-C again at the empty prompt (two
        // SIGINTs pending at once are one: a player starved on a loaded machine, 20 s seen, must
        // have taken the first before the second is sent)
        try terminal.send("C-c")
        _ = try #require(terminal.waitFor("mistyped^C", timeout: 120), "\(terminal.screen())")
        // and a fresh prompt below it
        #expect(terminal.waitUntil(timeout: 120) { $0.contains("mistyped^C\nabplayer />") } != nil, "\(terminal.screen())")
        try terminal.send("C-c")

        // Then the line was dropped, the hint says how to leave, and the player is still there
        #expect(terminal.waitFor("(Ctrl-D or 'quit' leaves; the place is saved either way)", timeout: 120) != nil, "\(terminal.screen())")
        try terminal.send("status", "Enter")
        #expect(terminal.waitFor("status: nothing is playing") != nil, "\(terminal.screen())")
        #expect(!terminal.screen().contains("SHELL$"), "\(terminal.screen())")
        try terminal.send("quit", "Enter")
        #expect(terminal.waitFor("SHELL$") != nil, "\(terminal.screen())")
    }

    @Test func thePromptCompletesQuotedNamesTogglesOnEnterAndKeepsHistoryAcrossRuns() throws {
        // Given a library with "Ender's Game" on the shelf "Science Fiction", and the REPL on a terminal
        let (abplayer, library) = try ReplTests.library("repl-terminal")
        let first = try Self.terminal(abplayer, library: library, name: "first")
        defer { first.stop() }
        #expect(first.waitFor("abplayer />") != nil, "\(first.screen())")

        // When a shelf name and a book name with an apostrophe are completed with Tab
        try first.send("cd Sci", "Tab")
        #expect(first.waitFor(#"abplayer /> cd "Science Fiction""#) != nil, "\(first.screen())")
        try first.send("Enter")
        // Then the prompt shows the shelf
        #expect(first.waitFor("abplayer /Science Fiction>") != nil, "\(first.screen())")
        try first.send("play End", "Tab")
        #expect(first.waitFor(#"abplayer /Science Fiction> play "Ender's Game""#) != nil, "\(first.screen())")
        try first.send("Enter")
        #expect(first.waitFor("playing #1 Ender's Game from 0:00") != nil, "\(first.screen())")

        // and an empty line pauses what plays
        try first.send("status", "Enter")
        #expect(first.waitFor("Ender's Game — playing") != nil, "\(first.screen())")
        try first.send("Enter")
        // (and says so: a stray Enter must not pause in silence)
        #expect(first.waitUntil { $0.split(separator: "\n").contains { $0.hasPrefix("paused at 0:") } } != nil, "\(first.screen())")
        try first.send("status", "Enter")
        #expect(first.waitFor("Ender's Game — paused") != nil, "\(first.screen())")
        // and Enter again plays on, saying from where
        try first.send("Enter")
        #expect(first.waitUntil { $0.split(separator: "\n").contains { $0.hasPrefix("playing from 0:") } } != nil, "\(first.screen())")
        try first.send("quit", "Enter")

        // And the next run has the lines typed before in its history (Up goes back through them)
        let historyFile = abplayer.home.appending(path: "state/abplayer/history")
        let clock = ContinuousClock()
        let start = clock.now
        while !((try? String(contentsOf: historyFile, encoding: .utf8))?.contains("quit") ?? false), (clock.now - start).seconds < 10 {
            Thread.sleep(forTimeInterval: 0.1)
        }
        let second = try Self.terminal(abplayer, library: library, name: "second")
        defer { second.stop() }
        #expect(second.waitFor("abplayer />") != nil, "\(second.screen())")
        try second.send("Up", "Up")
        #expect(second.waitFor("abplayer /> status") != nil, "\(second.screen())")
        try second.send("Up")
        #expect(second.waitFor(#"abplayer /> play "Ender's Game""#) != nil, "\(second.screen())")
    }

    @Test func clearEmptiesTheTerminalAndWritesNothingWhereItCannot() throws {
        // Given the REPL at a terminal, with lines on the screen
        let (abplayer, library) = try ReplTests.library("repl-clear")
        let terminal = try Self.terminal(abplayer, library: library, name: "clear")
        defer { terminal.stop() }
        #expect(terminal.waitFor("abplayer />") != nil, "\(terminal.screen())")
        try terminal.send("ls", "Enter")
        #expect(terminal.waitFor("Science Fiction/") != nil, "\(terminal.screen())")

        // When `clear` is typed
        try terminal.send("clear", "Enter")
        // Then the screen holds only the prompt, at its top
        let cleared = terminal.waitUntil { $0.trimmingCharacters(in: .whitespacesAndNewlines) == "abplayer />" }
        #expect(cleared != nil, "\(terminal.screen())")
        // and its topic in `help` lists it
        try terminal.send("help screens", "Enter")
        #expect(terminal.waitUntil { $0.contains("clear the terminal") } != nil, "\(terminal.screen())")

        // Given TERM=dumb: `clear` leaves the screen as it is
        let dumb = try Self.terminal(abplayer, library: abplayer.home.appending(path: "dumb.sqlite").path, name: "clear-dumb",
                                     environment: ["TERM": "dumb"])
        defer { dumb.stop() }
        #expect(dumb.waitFor("abplayer />") != nil, "\(dumb.screen())")
        try dumb.send("ls", "Enter")
        #expect(dumb.waitFor("(the library is empty") != nil, "\(dumb.screen())")
        try dumb.send("clear", "Enter")
        try dumb.send("status", "Enter")
        let after = dumb.waitFor("status: nothing is playing") ?? dumb.screen()
        #expect(after.contains("(the library is empty"), "\(after)")

        // and from a script or a pipe it writes nothing at all
        let script = try abplayer.run(["-c", "clear", "--library", library]).requireSuccess()
        #expect(script.stdout.isEmpty && script.stderr.isEmpty, "\(script.stdoutString) \(script.stderr)")
    }
}
