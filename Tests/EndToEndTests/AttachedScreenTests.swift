import Foundation
import TestSupport
import Testing

/// `now` from a second terminal while a daemon plays: the player screen attached to the running
/// player over its control socket, as `cmus-remote` reaches cmus. Real binaries in tmux.
@Suite struct AttachedScreenTests {
    @Test func nowInASecondTerminalShowsAndDrivesTheDaemonsBookAndCtrlCLeavesItPlaying() throws {
        // Given the book Code listened to before, and a daemon on its library (the book ready, paused)
        // (90 s: the book must not end while a loaded machine keeps this test waiting)
        let fixture = try ControlFixture("now-attached", seconds: 90)
        defer { fixture.cleanUp() }
        _ = try fixture.abplayer.run(["-c", "play Code; seek 0:05", "--output", "null", "--library", fixture.library]).requireSuccess()
        let daemon = try DaemonProcess(fixture, output: "null")
        #expect(daemon.waitForSocket(fixture.socketPath), "\(daemon.log)")

        // When `abplayer now` runs in another terminal
        let screen = try TmuxTerminal(fixture.abplayer, name: "attached", arguments: ["now", "--library", fixture.library],
                                      environment: ["XDG_RUNTIME_DIR": fixture.runtime, "TERM": "xterm-256color"],
                                      columns: 100, rows: 30, then: "echo CLIENT-EXIT $?; read -r line")
        defer { screen.stop() }

        // Then it shows the daemon's book, paused at its place, with the keys that work here
        let shown = screen.waitUntil { $0.contains("PAUSED") && $0.contains("Code") && $0.contains("book 0:05") }
        #expect(shown != nil, "\(screen.screen())\n\(daemon.log)")
        #expect(shown.map { $0.contains("q back") && $0.contains("L library") && !$0.contains("B bookmarks") } == true, "\(shown ?? "")")
        // and space plays it: the daemon plays, and the screen follows it
        try screen.send("Space")
        #expect(screen.waitUntil { $0.contains("PLAYING") } != nil, "\(screen.screen())\n\(daemon.log)")
        #expect(try fixture.status(within: 20) { $0.state == "playing" && $0.itemPosition > 5 } != nil)
        // and ↑ and ] step the daemon's volume and speed, seen on the screen from its state
        try screen.send("Up", "]")
        #expect(screen.waitUntil { $0.contains("volume 105%") && $0.contains("speed 1.1x") } != nil, "\(screen.screen())")

        // When Ctrl-C is pressed on it
        try screen.send("C-c")
        // Then this terminal is back at its prompt and the daemon plays on
        #expect(screen.waitUntil { $0.contains("abplayer />") && !$0.contains("PLAYING") } != nil, "\(screen.screen())")
        #expect(try fixture.status().state == "playing")
        // and `now` there attaches again; q leaves it the same way
        try screen.send("now", "Enter")
        #expect(screen.waitUntil { $0.contains("PLAYING") && $0.contains("Code") } != nil, "\(screen.screen())")
        try screen.send("q")
        #expect(screen.waitUntil { $0.contains("abplayer /> now") } != nil, "\(screen.screen())")

        // When the daemon stops while the screen shows, the screen says so and the client ends
        try screen.send("now", "Enter")
        #expect(screen.waitUntil { $0.contains("PLAYING") } != nil, "\(screen.screen())")
        #expect(daemon.stop() == 0, "\(daemon.log)")
        #expect(screen.waitUntil { $0.contains("abplayer: the player stopped") && $0.contains("CLIENT-EXIT 1") } != nil,
                "\(screen.screen())")
    }

    /// The book Echo (91 s) imported onto the shelf Talks of the fixture's library, beside Code.
    static func importEcho(into fixture: ControlFixture) throws {
        let echo = fixture.abplayer.home.appending(path: "Echo")
        try FileManager.default.createDirectory(at: echo, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try Fixtures.mp3(seconds: 91, vbr: false), to: echo.appending(path: "01.mp3"))
        _ = try fixture.abplayer.run(["import", "--library", fixture.library, "--shelf", "Talks", echo.path]).requireSuccess()
    }

    /// `abplayer library` in a second terminal, a client of the fixture's daemon; its shell says
    /// how it ended, then waits for a line.
    static func libraryScreen(_ fixture: ControlFixture, name: String) throws -> TmuxTerminal {
        try TmuxTerminal(fixture.abplayer, name: name, arguments: ["library", "--library", fixture.library],
                         environment: ["XDG_RUNTIME_DIR": fixture.runtime, "TERM": "xterm-256color"],
                         columns: 100, rows: 30, then: "echo CLIENT-EXIT $?; read -r line")
    }

    @Test func libraryInASecondTerminalBrowsesTheBooksAndEnterPlaysOneOnTheDaemon() throws {
        // Given a library of two books, Code (listened to before) and Echo on the shelf Talks,
        // and a daemon on it (Code ready, paused)
        let fixture = try ControlFixture("library-attached", seconds: 90)
        defer { fixture.cleanUp() }
        try Self.importEcho(into: fixture)
        _ = try fixture.abplayer.run(["-c", "play Code; seek 0:05", "--output", "null", "--library", fixture.library]).requireSuccess()
        let daemon = try DaemonProcess(fixture, output: "null")
        #expect(daemon.waitForSocket(fixture.socketPath), "\(daemon.log)")

        // When `abplayer library` runs in another terminal
        let screen = try Self.libraryScreen(fixture, name: "library-attached")
        defer { screen.stop() }
        // Then it shows both books and the shelf, Code marked as the daemon's
        let shown = screen.waitUntil { $0.contains("2 books") && $0.contains("Talks (1)") && $0.contains("▶ Code") && $0.contains("Echo") }
        #expect(shown != nil, "\(screen.screen())\n\(daemon.log)")

        // When Echo is chosen and Enter pressed
        try screen.send("Down", "Enter")
        // Then the daemon plays Echo, and the screen turns to the attached player screen showing it
        #expect(try fixture.status(within: 20) { $0.book == "Echo" && $0.state == "playing" } != nil, "\(daemon.log)")
        #expect(screen.waitUntil { $0.contains("PLAYING") && $0.contains("Echo") && $0.contains("L library") } != nil, "\(screen.screen())")

        // When L opens the library again, it marks Echo as playing; q goes back to the player,
        // and q again to this terminal's prompt, the daemon playing on
        try screen.send("L")
        #expect(screen.waitUntil { $0.contains("▶ Echo") && $0.contains("Talks (1)") } != nil, "\(screen.screen())")
        try screen.send("q")
        #expect(screen.waitUntil { $0.contains("PLAYING") && $0.contains("Echo") && !$0.contains("Talks (1)") } != nil, "\(screen.screen())")
        try screen.send("q")
        #expect(screen.waitUntil { $0.contains("abplayer />") && !$0.contains("PLAYING") } != nil, "\(screen.screen())")
        #expect(try fixture.status().book == "Echo")
        #expect(try fixture.status().state == "playing")
        // and `quit` there leaves the client (its shell then waits for a line, which the
        // terminal's stop ends: a tmux server left waiting otherwise outlived the run)
        try screen.send("quit", "Enter")
        #expect(screen.waitFor("CLIENT-EXIT 0") != nil, "\(screen.screen())")
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }

    @Test func theLibraryScreenReadsTheLibraryAgainWhenAnotherClientChangesIt() throws {
        // Given a library of two books, Code and Echo on the shelf Talks, and a daemon on it
        let fixture = try ControlFixture("library-changes", seconds: 90)
        defer { fixture.cleanUp() }
        try Self.importEcho(into: fixture)
        let daemon = try DaemonProcess(fixture, output: "null")
        #expect(daemon.waitForSocket(fixture.socketPath), "\(daemon.log)")
        // and `abplayer library` in another terminal, showing both
        let screen = try Self.libraryScreen(fixture, name: "library-changes")
        defer { screen.stop() }
        #expect(screen.waitUntil { $0.contains("2 books") && $0.contains("Talks (1)") && $0.contains("Echo") } != nil,
                "\(screen.screen())\n\(daemon.log)")

        // When another client renames Echo through the daemon
        _ = try fixture.remote(["book rename Echo Foxtrot"]).requireSuccess()
        // Then the screen reads the library again and shows the new title
        #expect(screen.waitUntil { $0.contains("Foxtrot") && !$0.contains("Echo") && $0.contains("2 books") } != nil,
                "\(screen.screen())\n\(daemon.log)")

        // When it removes the book, the screen drops it, and its shelf holds none
        _ = try fixture.remote(["book rm Foxtrot"]).requireSuccess()
        #expect(screen.waitUntil { $0.contains("1 book") && !$0.contains("Foxtrot") && $0.contains("Talks (0)") } != nil,
                "\(screen.screen())\n\(daemon.log)")

        // (q back to the client's prompt, and `quit` ends the client: its shell's wait for a line
        // is ended by the terminal's stop)
        try screen.send("q")
        #expect(screen.waitUntil { $0.contains("abplayer />") } != nil, "\(screen.screen())")
        try screen.send("quit", "Enter")
        #expect(screen.waitFor("CLIENT-EXIT 0") != nil, "\(screen.screen())")
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }
}
