import Foundation
import TestSupport
import Testing

/// `help` through the real binary: its pages as a script gets them (80 columns, no escape
/// sequence, never paged), and paged at a small terminal in tmux.
@Suite(.serialized) struct ReplHelpTests {
    /// `abplayer -c LINE` on an empty library.
    static func script(_ abplayer: AbplayerProcess, _ line: String) throws -> CommandResult {
        try abplayer.run(["-c", line, "--library", abplayer.home.appending(path: "library.sqlite").path])
    }

    @Test func aScriptGetsTheOverviewATopicACommandAndAnActionAt80Columns() throws {
        let abplayer = try AbplayerProcess("help-script")

        // Plain help: the topics and the first commands, short
        let overview = try Self.script(abplayer, "help").requireSuccess()
        let lines = overview.stdoutString.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count < 24, "\(overview.stdoutString)")
        for topic in ["playback", "chapters", "bookmarks", "library", "sync", "settings", "screens"] {
            #expect(lines.contains { $0.hasPrefix("  \(topic) ") }, "\(topic): \(overview.stdoutString)")
        }
        #expect(lines.contains { $0.hasPrefix("  play [BOOK | ITEM]") } && lines.contains { $0.hasPrefix("  +[N] | -[N]") })

        // A topic: its commands and no others
        let bookmarks = try Self.script(abplayer, "help bookmarks").requireSuccess().stdoutString
        #expect(bookmarks.hasPrefix("bookmarks: "), "\(bookmarks)")
        for usage in ["bookmark [NOTE] | rm N | note N [TEXT]", "bookmarks [--all] [BOOK]", "jump N"] {
            #expect(bookmarks.contains("\n  " + usage), "\(usage): \(bookmarks)")
        }
        #expect(!bookmarks.contains("\n  seek "), "\(bookmarks)")

        // A command: its usage, its summary indented below, its topic
        let seek = try Self.script(abplayer, "help seek").requireSuccess().stdoutString
        #expect(seek == """
            seek 1:02:03 | +90 | -5m | 50%
              go to a time in the book, by an amount, or to a share of it
            topic: playback ('help playback' lists its commands)

            """, "\(seek)")

        // An action of a command
        let note = try Self.script(abplayer, "help bookmark note").requireSuccess().stdoutString
        #expect(note == """
            bookmark note N [TEXT]
              replace the note of bookmark N (as 'bookmarks' numbers them) with TEXT (none:
              the note is removed)

            """, "\(note)")

        // Every command, wrapped at 80 columns: no line padded to the longest usage, no escape
        let all = try Self.script(abplayer, "help all").requireSuccess()
        let allLines = all.stdoutString.split(separator: "\n")
        #expect(allLines.count > 100)
        #expect(allLines.allSatisfy { $0.count <= 80 }, "\(allLines.filter { $0.count > 80 })")
        #expect(!all.stdout.contains(0x1B) && !all.stdoutString.contains("-- more"))
        #expect(allLines.contains("sync: your place and bookmarks on every computer, by a shared folder"))

        // Nonsense: one line saying what exists, and a failure
        let nonsense = try Self.script(abplayer, "help nonsense")
        #expect(nonsense.status == 1)
        #expect(nonsense.stdout.isEmpty)
        #expect(nonsense.stderr == "help: no command or topic 'nonsense': topics are playback, chapters, bookmarks, library, sync, settings, screens; 'help all' lists every command\n")
    }

    @Test func helpTallerThanTheWindowPagesAtATerminalAndNowhereElse() throws {
        // Given the REPL at an 80x12 terminal, its control socket listening
        let fixture = try ControlFixture("help-pager")
        defer { fixture.cleanUp() }
        let arguments = ["--output", "null", "--library", fixture.library]
        let terminal = try TmuxTerminal(fixture.abplayer, name: "pager", arguments: arguments,
                                        environment: ["XDG_RUNTIME_DIR": fixture.runtime], columns: 80, rows: 12)
        defer { terminal.stop() }
        #expect(terminal.waitFor("abplayer />") != nil, "\(terminal.screen())")

        // When `help all` is typed, with a command after it
        try terminal.send("help all; status", "Enter")
        // Then the first window shows under a more prompt, what the command says held back
        let first = try #require(terminal.waitFor("-- more ("), "\(terminal.screen())")
        #expect(first.contains("playback: ") && !first.contains("screens: "), "\(first)")
        #expect(!first.contains("nothing is playing"), "\(first)")
        let firstShare = try #require(Self.share(first), "\(first)")

        // When Space is pressed, the next window; Enter, one line more
        try terminal.send("Space")
        let second = try #require(terminal.waitUntil { Self.share($0).map { $0 > firstShare } == true }, "\(terminal.screen())")
        let secondShare = try #require(Self.share(second))
        try terminal.send("Enter")
        // (one line of a long help may not move the share's whole percent: the window moved)
        #expect(terminal.waitUntil { $0 != second && Self.share($0).map { $0 >= secondShare } == true } != nil, "\(terminal.screen())")

        // When q is pressed, the prompt is back under what the command said, and the REPL works
        try terminal.send("q")
        let back = terminal.waitUntil {
            !$0.contains("-- more") && $0.contains("status: nothing is playing") && Self.lastLine($0) == "abplayer />"
        }
        #expect(back != nil, "\(terminal.screen())")
        try terminal.send("ls", "Enter")
        #expect(terminal.waitUntil { $0.contains("abplayer /> ls\n") && $0.contains("Code") } != nil, "\(terminal.screen())")

        // A page that fits is not paged
        try terminal.send("help seek", "Enter")
        #expect(terminal.waitUntil { $0.contains("topic: playback") && Self.lastLine($0) == "abplayer />" } != nil, "\(terminal.screen())")

        // A socket client's help is never paged on the player's terminal, and comes at 80 columns
        #expect(waitUntil(within: 20) { fixture.socketPath() != nil }, "no control socket")
        let client = try RawSocketClient(path: try #require(fixture.socketPath()))
        let reply = try #require(client.request("help all"))
        #expect(reply.ok && reply.output.count > 100)
        #expect(reply.output.allSatisfy { $0.count <= 80 && !$0.contains("\u{1B}") }, "\(reply.output.filter { $0.count > 80 })")
        #expect(!terminal.screen().contains("-- more"), "\(terminal.screen())")

        // Given TERM=dumb at the same size: `help all` runs to its end, unpaged, back at the prompt
        let dumb = try TmuxTerminal(fixture.abplayer, name: "pager-dumb", arguments: ["--output", "null", "--library",
                                    fixture.abplayer.home.appending(path: "dumb.sqlite").path],
                                    environment: ["TERM": "dumb"], columns: 80, rows: 12)
        defer { dumb.stop() }
        #expect(dumb.waitFor("abplayer />") != nil, "\(dumb.screen())")
        try dumb.send("help all", "Enter")
        let unpaged = dumb.waitUntil { $0.contains("screens: ") && Self.lastLine($0) == "abplayer />" }
        #expect(unpaged != nil && unpaged?.contains("-- more") == false, "\(dumb.screen())")

        // And from a pipe: every line, no escape sequence, no more prompt
        let piped = try Command.run(BuildProducts.abplayer.path,
                                    ["--output", "null", "--library", fixture.abplayer.home.appending(path: "pipe.sqlite").path],
                                    stdin: Data("help all\n".utf8), environment: fixture.abplayer.environment, timeout: 60).requireSuccess()
        #expect(!piped.stdout.contains(0x1B) && !piped.stdoutString.contains("-- more"), "\(piped.stdoutString)")
        #expect(piped.stdoutString.contains("screens: "), "\(piped.stdoutString)")
    }

    @Test func aSecondTerminalPagesTheHelpItselfAndStillDrivesThePlayer() throws {
        // Given a daemon, and `abplayer` in a second 80x12 terminal: a client of it
        let fixture = try ControlFixture("help-remote")
        defer { fixture.cleanUp() }
        let daemon = try DaemonProcess(fixture, output: "null")
        #expect(daemon.waitForSocket(fixture.socketPath), "\(daemon.log)")
        let terminal = try TmuxTerminal(fixture.abplayer, name: "remote-pager", arguments: ["--library", fixture.library],
                                        environment: ["XDG_RUNTIME_DIR": fixture.runtime, "TERM": "xterm-256color"],
                                        columns: 80, rows: 12)
        defer { terminal.stop() }
        #expect(terminal.waitFor("abplayer />") != nil, "\(terminal.screen())\n\(daemon.log)")

        // When `help all` is typed there, it pages on that terminal
        try terminal.send("help all", "Enter")
        let first = try #require(terminal.waitFor("-- more ("), "\(terminal.screen())")
        let firstShare = try #require(Self.share(first))
        try terminal.send("Space")
        #expect(terminal.waitUntil { Self.share($0).map { $0 > firstShare } == true } != nil, "\(terminal.screen())")

        // When q is pressed, its prompt is back and its lines still reach the daemon
        try terminal.send("q")
        #expect(terminal.waitUntil { !$0.contains("-- more") && Self.lastLine($0) == "abplayer />" } != nil, "\(terminal.screen())")
        try terminal.send("ls", "Enter")
        #expect(terminal.waitUntil { $0.contains("Code") && Self.lastLine($0) == "abplayer />" } != nil, "\(terminal.screen())")
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }

    /// The share the more prompt says has been shown, if it shows.
    static func share(_ screen: String) -> Int? {
        guard let range = screen.range(of: #"-- more \((\d+)%\)"#, options: .regularExpression) else { return nil }
        return Int(screen[range].filter(\.isNumber))
    }

    /// The screen's last line with anything on it.
    static func lastLine(_ screen: String) -> String? {
        screen.split(separator: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
