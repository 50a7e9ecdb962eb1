import Foundation
import TestSupport
import Testing

/// Files whose tags, chapter titles, folder names and MP4 box types hold terminal escape
/// sequences (a window title, a colour, a screen clear), BEL, C1 controls, a bidi override and
/// newlines. Every text view shows them visibly (`\e`, `\x07`, `\u202E`, `\n`: the scheme of
/// Sources/Console/TerminalText.swift) and none reaches the terminal as itself; JSON keeps them
/// exact.
@Suite(.serialized) struct HostileTextTests {
    /// Sets the window title, turns the text red, reverses what follows, forges a second line.
    static let title = "Red\u{1B}]0;PWNED\u{07}\u{1B}[31mTitle\u{202E}3pm\nForged"
    /// A C1 CSI (an escape on terminals that take 8-bit controls) and a screen clear.
    static let artist = "Art\u{9B}31m\u{1B}[2J"
    static let album = "Alb\u{1B}]2;ALBUM\u{07}\u{2066}um"
    static let chapters: [FixtureChapter] = [(0, "Ch\u{1B}[1mOne\u{07}"), (30, "Two\nLines\u{7F}")]
    /// The folder the book is imported from (a file name from the disk, not a tag).
    static let folder = "Dir\u{1B}[7mName"

    /// What the screen shows for `title`: ASCII, one line.
    static let shownTitle = #"Red\e]0;PWNED\x07\e[31mTitle\u202E3pm\nForged"#

    /// A 60 s MP3 made by lame, given the hostile tags and ID3v2.3 CHAP frames by ffmpeg, in
    /// `home/books/<folder>/01.mp3`.
    static func hostileMP3(in home: URL) throws -> URL {
        let chaptered = try Fixtures.withChapters(try Fixtures.mp3(seconds: 60, vbr: false), chapters: chapters, totalSeconds: 60)
        let folder = home.appending(path: "books").appending(path: Self.folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appending(path: "01.mp3")
        _ = try Command.run("ffmpeg", ["-v", "error", "-y", "-i", chaptered.path, "-map", "0", "-map_metadata", "0",
                                       "-map_chapters", "0", "-c", "copy", "-id3v2_version", "3", "-write_xing", "1",
                                       "-metadata", "title=\(title)", "-metadata", "artist=\(artist)",
                                       "-metadata", "album=\(album)", file.path]).requireSuccess()
        return file
    }

    /// The characters that must never reach a terminal from a file: C0 controls but the
    /// newline ending lines and the tab between fields, DEL, C1, bidi overrides and isolates.
    static func unsafe(_ text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { scalar in
            switch scalar.value {
            case 0x0A, 0x09: false
            case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
            default: false
            }
        }
    }

    static func expectHarmless(_ result: CommandResult, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for (stream, text) in [("stdout", result.stdoutString), ("stderr", result.stderr)] {
            #expect(unsafe(text).isEmpty, "\(what) \(stream): \(text.debugDescription)", sourceLocation: sourceLocation)
            // A newline from a tag never starts a line of its own.
            #expect(!text.split(separator: "\n").contains { $0.hasPrefix("Forged") || $0.hasPrefix("Lines") },
                    "\(what) \(stream): \(text.debugDescription)", sourceLocation: sourceLocation)
        }
    }

    @Test func theSubcommandsShowWhatFilesHoldVisiblyAndJSONExactly() throws {
        // Given an MP3 with hostile tags and chapter titles in a folder with an escape in its name
        let abplayer = try AbplayerProcess("hostile-commands")
        let file = try Self.hostileMP3(in: abplayer.home)
        let library = abplayer.home.appending(path: "library.sqlite").path

        // When probed, the report shows every tag and chapter title visibly, each on its line
        let probe = try abplayer.run(["probe", file.path]).requireSuccess()
        Self.expectHarmless(probe, "probe")
        #expect(probe.stdoutString.contains("title:     " + Self.shownTitle), "\(probe.stdoutString)")
        #expect(probe.stdoutString.contains(#"Ch\e[1mOne\x07"#) && probe.stdoutString.contains(#"Two\nLines\x7F"#), "\(probe.stdoutString)")
        #expect(probe.stdoutString.contains(#"Art\u009B31m\e[2J"#) && probe.stdoutString.contains(#"Alb\e]2;ALBUM\x07\u2066um"#),
                "\(probe.stdoutString)")
        // and its JSON holds the exact strings
        let json = try abplayer.probe(file)
        #expect(json.tags["title"] == Self.title && json.tags["artist"] == Self.artist && json.tags["album"] == Self.album,
                "\(json.tags)")
        #expect(json.chapters.map(\.title) == Self.chapters.map(\.title))

        // When imported onto a shelf with an escape in its name, and listed
        let shelf = "Sh\u{1B}[32melf"
        let imported = try abplayer.run(["import", "--library", library, "--shelf", shelf, file.deletingLastPathComponent().path])
            .requireSuccess()
        Self.expectHarmless(imported, "import")
        let books = try abplayer.run(["books", "--library", library]).requireSuccess()
        Self.expectHarmless(books, "books")
        #expect(books.stdoutString.contains(#"Sh\e[32melf"#), "\(books.stdoutString)")
        let shelves = try abplayer.run(["shelves", "--library", library]).requireSuccess()
        Self.expectHarmless(shelves, "shelves")
        #expect(shelves.stdoutString.contains(#"Sh\e[32melf"#), "\(shelves.stdoutString)")
        // Then books --json gives back the exact item title
        let booksJSON = try abplayer.run(["books", "--library", library, "--json"]).requireSuccess()
        let object = try #require(try JSONSerialization.jsonObject(with: booksJSON.stdout) as? [String: Any])
        let items = try #require(object["items"] as? [[String: Any]], "\(booksJSON.stdoutString)")
        #expect(items.first?["title"] as? String == Self.title, "\(booksJSON.stdoutString)")
        #expect(object["shelf"] as? String == shelf, "\(booksJSON.stdoutString)")

        // When a bookmark's note holds an escape, the list shows it visibly and the JSON exactly
        let added = try abplayer.run(["bookmarks", "add", "--library", library, "--note", "n\u{1B}[5mote", "#1"]).requireSuccess()
        Self.expectHarmless(added, "bookmarks add")
        let marks = try abplayer.run(["bookmarks", "--library", library, "#1"]).requireSuccess()
        Self.expectHarmless(marks, "bookmarks")
        #expect(marks.stdoutString.contains(#"n\e[5mote"#), "\(marks.stdoutString)")
        let marksJSON = try abplayer.run(["bookmarks", "--library", library, "--json", "#1"]).requireSuccess()
        let mark = try #require(try JSONSerialization.jsonObject(with: marksJSON.stdout) as? [String: Any])
        #expect(mark["note"] as? String == "n\u{1B}[5mote" && mark["number"] as? String == "1", "\(marksJSON.stdoutString)")

        // When a book id that does not exist is asked for with a hostile reference, the error is one visible line
        let missing = try abplayer.run(["bookmarks", "--library", library, "no\u{1B}]0;X\u{07}such"])
        #expect(missing.status != 0)
        Self.expectHarmless(missing, "bookmarks")
        #expect(missing.stderr.split(separator: "\n").count == 1, "\(missing.stderr.debugDescription)")

        // When an error of Foundation's (reported by the command line's own error path) names a
        // folder with an escape in its name
        let folder = abplayer.home.appending(path: "no\u{1B}]0;X\u{07}such")
        let export = try abplayer.run(["export", "--library", library, folder.appending(path: "state.json").path])
        // Then it is shown visibly
        #expect(export.status != 0)
        Self.expectHarmless(export, "export")
        #expect(export.stderr.contains(#"no\e]0;X\x07such"#), "\(export.stderr.debugDescription)")
    }

    /// `file` (an ffmpeg M4B) with a box of `type` appended to moov and its size then set below
    /// the 8-byte header, so the demuxer's error quotes the type.
    static func mp4WithBox(_ type: String, label: String) throws -> URL {
        try Fixtures.editedMP4(try Fixtures.aac(seconds: 3), label: "hostile-box-\(label)") { editor in
            try editor.append(MP4BoxEditor.Node(type, payload: [0, 0, 0, 0]), to: "moov")
            var bytes = try editor.edited()
            let pattern = Array(type.unicodeScalars.map { UInt8($0.value) })
            let at = try #require((0...(bytes.count - pattern.count)).last { Array(bytes[$0..<$0 + pattern.count]) == pattern })
            bytes.replaceSubrange(at - 4..<at, with: MP4BoxEditor.be32(4))
            editor = MP4BoxEditor(bytes: bytes)
        }
    }

    @Test func anMP4BoxTypeQuotedInAnErrorStaysOneVisibleLine() throws {
        // Given two M4B files with a broken box whose type is a screen clear, and one holding a newline and BEL
        let clear = try Self.mp4WithBox("\u{1B}[2J", label: "clear")
        let newline = try Self.mp4WithBox("a\n\u{07}b", label: "newline")
        // When probed
        let result = try AbplayerProcess("hostile-box").run(["probe", clear.path, newline.path])
        // Then each is one line naming the box visibly (the AAC decoder's refusal, said as a
        // warning: the catch-all, which skips the broken box, plays them)
        #expect(result.status == 0, "\(result.stderr.debugDescription)")
        Self.expectHarmless(result, "probe")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(result.stderr.debugDescription)")
        #expect(lines.first?.contains(#"moov/\e[2J"#) == true, "\(lines)")
        #expect(lines.last?.contains(#"moov/a\n\x07b"#) == true, "\(lines)")
    }

    @Test func aRemoteClientShowsTextVisiblyAndTheStatusObjectExactly() throws {
        // Given a daemon on a library holding the hostile book as #2
        let fixture = try ControlFixture("hostile-remote")
        defer { fixture.cleanUp() }
        let file = try Self.hostileMP3(in: fixture.abplayer.home)
        _ = try fixture.abplayer.run(["import", "--library", fixture.library, file.deletingLastPathComponent().path]).requireSuccess()
        let daemon = try DaemonProcess(fixture, output: "null")
        #expect(daemon.waitForSocket(fixture.socketPath), "\(daemon.log)")
        defer { _ = daemon.stop() }

        // When a remote client plays it and asks for the status as text
        let play = try fixture.remote(["play", "#2"])
        Self.expectHarmless(play, "remote play")
        #expect(play.status == 0 && play.stdoutString.contains(#"playing #2 Alb\e]2;ALBUM\x07\u2066um"#), "\(play.stdoutString) \(play.stderr)")
        let status = try fixture.remote(["status"]).requireSuccess()
        // Then it is shown visibly, a line per field
        Self.expectHarmless(status, "remote status")
        #expect(status.stdoutString.contains("item 1/1: " + Self.shownTitle), "\(status.stdoutString)")
        // and the status object keeps the exact strings
        #expect(try fixture.status().book == Self.album)
    }

    @Test func theREPLAndThePlayerScreenShowTitlesVisiblyAndKeepTheWindowTitle() throws {
        // Given the hostile book in a library, and the REPL on a terminal
        let abplayer = try AbplayerProcess("hostile-repl")
        let file = try Self.hostileMP3(in: abplayer.home)
        let library = abplayer.home.appending(path: "library.sqlite").path
        _ = try abplayer.run(["import", "--library", library, file.deletingLastPathComponent().path]).requireSuccess()
        let terminal = try TmuxTerminal(abplayer, name: "repl", arguments: ["--output", "null", "--library", library],
                                        environment: ["TERM": "xterm-256color"], columns: 160, rows: 40)
        defer { terminal.stop() }
        func windowTitle() -> String { (try? terminal.tmux(["display-message", "-p", "#{pane_title}"]))?.stdoutString ?? "" }
        #expect(terminal.waitFor("abplayer />") != nil, "\(terminal.screen())")
        let titleBefore = windowTitle()

        // When the books are listed and found
        try terminal.send("ls", "Enter")
        #expect(terminal.waitFor(#"#1 Alb\e]2;ALBUM\x07\u2066um"#) != nil || terminal.waitFor(#"#1 Dir\e[7mName"#) != nil,
                "\(terminal.screen())")
        try terminal.send("find PWNED", "Enter")
        // When the book plays: the notice, then status
        try terminal.send("play #1", "Enter")
        #expect(terminal.waitFor("playing #1") != nil, "\(terminal.screen())")
        try terminal.send("status", "Enter")
        #expect(terminal.waitFor("item 1/1: " + Self.shownTitle) != nil, "\(terminal.screen())")
        #expect(terminal.waitFor(#"chapter 1/2: Ch\e[1mOne\x07"#) != nil, "\(terminal.screen())")
        // Then nothing was coloured, retitled or forged by the file
        let prompt = terminal.screen(escapes: true)
        #expect(!prompt.contains("\u{1B}[31m") && !prompt.contains("\u{1B}[7m"), "\(prompt.debugDescription)")
        #expect(!terminal.screen().split(separator: "\n").contains { $0.hasPrefix("Forged") || $0.hasPrefix("Lines") }, "\(terminal.screen())")
        #expect(windowTitle() == titleBefore)

        // When the player screen shows, the title is visible there too, within the width
        try terminal.send("now", "Enter")
        let screen = terminal.waitUntil { $0.contains("PLAYING") && $0.contains(#"item 1/1: Red\e]0;PWNED\x07\e[31mTitle"#) }
        #expect(screen != nil, "\(terminal.screen())")
        #expect(terminal.screen().split(separator: "\n").allSatisfy { $0.count <= 160 })
        let drawn = terminal.screen(escapes: true)
        // (the screen's own styles are bold, dim, reverse, green and yellow: red came from the file)
        #expect(!drawn.contains("\u{1B}[31m"), "\(drawn.debugDescription)")
        #expect(windowTitle() == titleBefore)
    }
}
