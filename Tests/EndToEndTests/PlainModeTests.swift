import Foundation
import TestSupport
import Testing

/// Plain mode as a screen reader meets it (`--plain`, `set plain on`): on a terminal that could
/// draw screens (TERM=xterm-256color, as GNOME Terminal's under Orca), abplayer only appends
/// whole lines, and what a screen would show is said on a line of its own as it happens. The
/// bytes are read as the pane got them (tmux's pipe-pane), the tty's newline translation off so
/// that any CR in them is abplayer's own.
@Suite struct PlainModeTests {
    /// A REPL in a tmux pane, everything written to it kept in `raw`.
    struct Session {
        let terminal: TmuxTerminal
        let raw: URL

        init(_ abplayer: AbplayerProcess, name: String, arguments: [String], runtime: String) throws {
            // abplayer starts only once the pane's output is kept (`piped`): its first line too.
            let piped = abplayer.home.appending(path: "\(name).piped")
            let wrapper = abplayer.home.appending(path: "\(name)-no-onlcr.sh")
            try "#!/bin/sh\nwhile [ ! -e '\(piped.path)' ]; do sleep 0.05; done\nstty -onlcr\nexec \"$@\"\n"
                .write(to: wrapper, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper.path)
            raw = abplayer.home.appending(path: "\(name).raw")
            terminal = try TmuxTerminal(abplayer, name: name, arguments: arguments,
                                        environment: ["TERM": "xterm-256color", "XDG_RUNTIME_DIR": runtime], columns: 100, rows: 30,
                                        wrapper: wrapper.path)
            try terminal.tmux(["pipe-pane", "-o", "cat >> '\(raw.path)'"]).requireSuccess()
            FileManager.default.createFile(atPath: piped.path, contents: nil)
        }

        /// The lines written so far, each without the prompts before it (a notice comes after
        /// the prompt it interrupts), empty ones dropped.
        var lines: [String] {
            let text = String(decoding: (try? Data(contentsOf: raw)) ?? Data(), as: UTF8.self)
            return text.split(separator: "\n").map { line in
                var line = Substring(line)
                while line.hasPrefix("abplayer /> ") { line = line.dropFirst("abplayer /> ".count) }
                return String(line)
            }.filter { !$0.isEmpty }
        }

        /// Waits until a line written matches `pattern` (a regular expression, whole line).
        @discardableResult
        func waitForLine(_ pattern: String, timeout: Double = 30) -> Bool {
            guard let regex = try? Regex(pattern) else { return false }
            return waitUntil(within: timeout) { lines.contains { (try? regex.wholeMatch(in: $0)) != nil } }
        }

        func type(_ line: String) throws { try terminal.send(line, "Enter") }

        var bytes: Data { (try? Data(contentsOf: raw)) ?? Data() }
    }

    /// A book of three files, 8 s, 3 s and 3 s (three chapters), imported; loudness and
    /// auto-rewind off, whose lines come when they are measured or after a pause.
    static func library(_ abplayer: AbplayerProcess) throws -> String {
        let folder = abplayer.home.appending(path: "Plain Book")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, seconds) in [("01.mp3", 8), ("02.mp3", 3), ("03.mp3", 3)] {
            try FileManager.default.copyItem(at: try Fixtures.mp3(seconds: seconds, vbr: false), to: folder.appending(path: name))
        }
        let library = abplayer.home.appending(path: "library.sqlite").path
        _ = try abplayer.run(["import", "--library", library, folder.path]).requireSuccess()
        _ = try abplayer.run(["-c", "set loudness off; rewind off", "--library", library]).requireSuccess()
        return library
    }

    static func plain(_ bytes: Data) -> Bool { !bytes.contains(0x1B) && !bytes.contains(0x0D) }

    static func runtimeDirectory(_ abplayer: AbplayerProcess) throws -> String {
        let runtime = abplayer.home.appending(path: "run").path
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return runtime
    }

    @Test func aScriptedSessionWithPlainIsAnnouncedLineByLineAndNothingElse() throws {
        // Given the REPL started with --plain on a terminal that could draw screens
        let abplayer = try AbplayerProcess("plain-session")
        let library = try Self.library(abplayer)
        let session = try Session(abplayer, name: "plain-session", arguments: ["--plain", "--output", "null", "--library", library],
                                  runtime: try Self.runtimeDirectory(abplayer))
        defer { session.terminal.stop() }
        #expect(session.waitForLine("abplayer — 'help' lists the commands, Ctrl-D quits\\."), "\(session.lines)")

        // When the listener picks the book from the numbered library, sets a 61 s sleep timer,
        // pauses at its minute's warning, bookmarks, asks the timer for the end of the chapter,
        // plays until it pauses there, then plays to the end of the book
        try session.type("library")
        #expect(session.waitForLine("type a book's number to play it; Enter goes back"), "\(session.lines)")
        try session.type("1")
        #expect(session.waitForLine("playing #1 Plain Book from .*"), "\(session.lines)")
        try session.type("sleep 61s")
        #expect(session.waitForLine("sleep timer: 1 minute left"), "\(session.lines)")
        try session.type("pause")
        #expect(session.waitForLine("paused at .*"), "\(session.lines)")
        try session.type("bookmark")
        #expect(session.waitForLine("bookmark 1 at .*"), "\(session.lines)")
        try session.type("sleep chapter")
        #expect(session.waitForLine("sleep timer: end of chapter"), "\(session.lines)")
        try session.type("play")
        #expect(session.waitForLine("sleep timer: paused at .*"), "\(session.lines)")
        try session.type("play")
        #expect(session.waitForLine("Plain Book: the end .*"), "\(session.lines)")
        try session.type("quit")

        // Then the lines written are, in order, exactly the typed commands' echoes, their answers
        // and the announcements a listener needs (a new chapter, the sleep timer's last minute
        // and end, the end of the book), with nothing between them
        let typed: Set = ["library", "1", "sleep 61s", "pause", "bookmark", "sleep chapter", "play", "quit"]
        let said = session.lines.filter { !typed.contains($0) && !$0.hasPrefix("MPRIS is off") }
        let expected = [
            "abplayer — 'help' lists the commands, Ctrl-D quits\\.",
            "1\\. /  #1 Plain Book  0:14  0%",
            "type a book's number to play it; Enter goes back",
            "playing #1 Plain Book from 0:00 \\(item 1/3\\) through null",
            "sleep timer: 1:01 left",
            "sleep timer: 1 minute left",
            "paused at 0:0\\d / 0:14 \\(\\d+%\\) · chapter 1/3: 01, 0:0\\d / 0:08",
            "bookmark 1 at 0:0\\d",
            "sleep timer: end of chapter",
            "playing from 0:0\\d / 0:14 \\(\\d+%\\) · chapter 1/3: 01, 0:0\\d / 0:08",
            "chapter 2: 02",
            "sleep timer: paused at 0:08 \\(bookmarked\\)",
            "playing from 0:08 / 0:14 \\(57%\\) · chapter 2/3: 02, 0:00 / 0:03",
            "chapter 3: 03",
            "Plain Book: the end \\(finished\\); 'play' or space starts it again",
        ]
        #expect(said.count == expected.count, "\(said)")
        for (line, pattern) in zip(said, expected) {
            #expect((try? Regex(pattern).wholeMatch(in: line)) != nil, "\(line) is not \(pattern): \(said)")
        }
        // and no byte of it moved the cursor, redrew a line or set a colour
        #expect(Self.plain(session.bytes), "\(Array(session.bytes))")
    }

    @Test func setPlainOnIsKeptAndAnnouncesWhatAnotherClientDid() throws {
        // Given plain mode set as the listener's default, and the REPL started without --plain
        // on a terminal that could draw screens
        let abplayer = try AbplayerProcess("plain-default")
        let library = try Self.library(abplayer)
        let set = try abplayer.run(["-c", "set plain on; set", "--library", library]).requireSuccess()
        #expect(set.stdoutString.contains("default plain on"), "\(set.stdoutString)")
        #expect(set.stdoutString.contains("plain   on"), "\(set.stdoutString)")
        let runtime = try Self.runtimeDirectory(abplayer)
        let session = try Session(abplayer, name: "plain-default", arguments: ["--output", "null", "--library", library], runtime: runtime)
        defer { session.terminal.stop() }
        #expect(session.waitForLine("abplayer — 'help' lists the commands, Ctrl-D quits\\."), "\(session.lines)")

        // When a book plays, `now` is typed, and another client pauses it and makes a bookmark
        try session.type("play Plain Book")
        #expect(session.waitForLine("playing #1 Plain Book from .*"), "\(session.lines)")
        try session.type("now")
        #expect(session.waitForLine("Plain Book — playing  item 1/3 .*  book 0:\\d\\d/0:14  .*"), "\(session.lines)")
        func remote(_ words: [String]) throws -> CommandResult {
            try Command.run(BuildProducts.abplayer.path, ["remote", "--library", library] + words,
                            environment: abplayer.environment.merging(["XDG_RUNTIME_DIR": runtime]) { $1 }, timeout: 30)
        }
        let paused = try remote(["pause"])
        #expect(paused.status == 0, "\(paused.stderr)")
        #expect(session.waitForLine("paused at 0:\\d\\d / 0:14 .*"), "\(session.lines)")
        let marked = try remote(["bookmark"])
        #expect(marked.status == 0, "\(marked.stderr)")

        // Then the pause and the bookmark are announced on this terminal with their places,
        // `now` printed the status once (no screen, no word of one), and nothing written moved
        // the cursor
        #expect(session.waitForLine("bookmark 1 at 0:\\d\\d"), "\(session.lines)")
        try session.type("quit")
        #expect(!session.lines.contains { $0.contains("needs a terminal") }, "\(session.lines)")
        #expect(Self.plain(session.bytes), "\(Array(session.bytes))")
    }

    @Test func plainBeforeTheCommandWordKeepsImportAndLsToWholeLinesOnATerminal() throws {
        // Given a folder to import, and a terminal that could draw a progress bar
        let abplayer = try AbplayerProcess("plain-import-option")
        let folder = abplayer.home.appending(path: "Plain Book")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["01.mp3", "02.mp3"] {
            try FileManager.default.copyItem(at: try Fixtures.mp3(seconds: 2, vbr: false), to: folder.appending(path: name))
        }
        let library = abplayer.home.appending(path: "library.sqlite").path

        // When it is imported and listed with --plain before the command's word
        let imported = try PlainOutputTests.onATerminal(abplayer, term: "xterm-256color", ["--plain", "import", "--library", library, folder.path])
        let listed = try PlainOutputTests.onATerminal(abplayer, term: "xterm-256color", ["--plain", "--library", library, "ls"])

        // Then both ran, and neither drew anything: no CR, no escape
        #expect(imported.status == 0 && imported.stdoutString.contains("Plain Book"), "\(imported.stdoutString)")
        #expect(Self.plain(imported.stdout), "\(Array(imported.stdout))")
        #expect(listed.status == 0 && listed.stdoutString.contains("Plain Book"), "\(listed.stdoutString)")
        #expect(Self.plain(listed.stdout), "\(Array(listed.stdout))")
    }
}
