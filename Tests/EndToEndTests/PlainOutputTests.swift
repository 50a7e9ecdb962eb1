import Foundation
import TestSupport
import Testing

/// Under TERM=dumb, or when the output is not a terminal, abplayer writes plain lines: no CR to
/// redraw a line and no escape sequence (a log, a pipe and a dumb terminal show them as junk).
@Suite struct PlainOutputTests {
    static let escape: UInt8 = 0x1B
    static let carriageReturn: UInt8 = 0x0D

    /// Two 2 s MP3s in the folder "Plain Book".
    static func book(_ abplayer: AbplayerProcess) throws -> URL {
        let folder = abplayer.home.appending(path: "Plain Book")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["01.mp3", "02.mp3"] {
            try FileManager.default.copyItem(at: try Fixtures.mp3(seconds: 2, vbr: false), to: folder.appending(path: name))
        }
        return folder
    }

    /// What `arguments` writes to a pseudo-terminal of its own (util-linux `script`), with the
    /// terminal's own newline translation off: the bytes abplayer wrote, as a terminal gets them.
    static func onATerminal(_ abplayer: AbplayerProcess, term: String, _ arguments: [String]) throws -> CommandResult {
        let command = "stty -onlcr; exec " + ([BuildProducts.abplayer.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        return try Command.run("script", ["-qec", command, "/dev/null"],
                               environment: abplayer.environment.merging(["TERM": term]) { $1 }, timeout: 120)
    }

    static func plain(_ bytes: Data) -> Bool { !bytes.contains(escape) && !bytes.contains(carriageReturn) }

    @Test func importOnADumbTerminalDrawsNoProgressBar() throws {
        // Given a book to import, and a terminal of each kind
        let abplayer = try AbplayerProcess("plain-import")
        let folder = try Self.book(abplayer)

        // When it is imported on a terminal that moves the cursor: the bar is drawn (CR, ESC[K)
        let drawn = try Self.onATerminal(abplayer, term: "xterm", ["import", "--library", abplayer.home.appending(path: "a.sqlite").path, folder.path])
        #expect(drawn.status == 0, "\(drawn.stdoutString)")
        #expect(drawn.stdout.contains(Self.carriageReturn) && drawn.stdout.contains(Self.escape), "\(drawn.stdoutString)")

        // When it is imported on a TERM=dumb terminal
        let dumb = try Self.onATerminal(abplayer, term: "dumb", ["import", "--library", abplayer.home.appending(path: "b.sqlite").path, folder.path])
        // Then the same import prints plain lines only
        #expect(dumb.status == 0, "\(dumb.stdoutString)")
        #expect(dumb.stdoutString.contains("Plain Book"), "\(dumb.stdoutString)")
        #expect(Self.plain(dumb.stdout), "\(Array(dumb.stdout))")
    }

    @Test func importPlayListenAndStatusIntoAPipeArePlain() throws {
        // Given a library with the book, and TERM=dumb
        let abplayer = try AbplayerProcess("plain-pipe")
        let folder = try Self.book(abplayer)
        let library = abplayer.home.appending(path: "library.sqlite").path
        func run(_ arguments: [String]) throws -> CommandResult {
            try Command.run(BuildProducts.abplayer.path, arguments, environment: abplayer.environment.merging(["TERM": "dumb"]) { $1 })
        }

        // When import, play, listen and the REPL's status, now and library write into pipes
        let results = [
            try run(["import", "--library", library, folder.path]),
            try run(["play", "--output", "null", folder.appending(path: "01.mp3").path]),
            try run(["listen", "--output", "null", "--library", library, "Plain Book"]),
            try run(["-c", "play Plain Book; status; now; library; clear", "--output", "null", "--library", library]),
        ]
        // Then each succeeded, and neither output holds a CR or an escape
        for result in results {
            #expect(result.status == 0, "\(result.commandLine): \(result.stderr)")
            #expect(Self.plain(result.stdout) && Self.plain(Data(result.stderr.utf8)), "\(result.commandLine): \(result.stdoutString) \(result.stderr)")
        }
        #expect(results[3].stdoutString.contains("Plain Book"), "\(results[3].stdoutString)")
    }

    @Test func nowAndLibraryOnADumbTerminalShowNoEscapes() throws {
        // Given the REPL at a TERM=dumb terminal with the book playing
        let abplayer = try AbplayerProcess("plain-tmux")
        let folder = try Self.book(abplayer)
        let library = abplayer.home.appending(path: "library.sqlite").path
        _ = try abplayer.run(["import", "--library", library, folder.path]).requireSuccess()
        let terminal = try TmuxTerminal(abplayer, name: "plain", arguments: ["--output", "null", "--library", library],
                                        environment: ["TERM": "dumb"], columns: 80, rows: 24)
        defer { terminal.stop() }
        #expect(terminal.waitFor("abplayer />") != nil, "\(terminal.screen())")

        try terminal.send("play Plain Book", "Enter")
        #expect(terminal.waitFor("playing #") != nil, "\(terminal.screen())")

        // When `now` and `library` are typed (the status once; the books numbered to pick one)
        try terminal.send("now", "Enter")
        #expect(terminal.waitFor("book 0:0") != nil, "\(terminal.screen())")
        try terminal.send("library", "Enter")
        #expect(terminal.waitFor("type a book's number to play it") != nil, "\(terminal.screen())")
        #expect(terminal.screen().contains("1. /  #1 Plain Book"), "\(terminal.screen())")

        // Then the screen, read with its escape sequences, has none: plain lines
        let shown = terminal.screen(escapes: true)
        #expect(!shown.contains("\u{1B}"), "\(shown)")
        #expect(shown.contains("Plain Book"), "\(shown)")
    }

    @Test func theReplOnADumbTerminalLetsTheTerminalEditTheLineAndOnlyAppendsLines() throws {
        // Given the REPL at a TERM=dumb terminal whose newline translation is off (any CR in
        // its output is abplayer's own), everything written to it kept in a file
        let abplayer = try AbplayerProcess("plain-repl")
        let folder = try Self.book(abplayer)
        let library = abplayer.home.appending(path: "library.sqlite").path
        _ = try abplayer.run(["import", "--library", library, folder.path]).requireSuccess()
        let wrapper = abplayer.home.appending(path: "no-onlcr.sh")
        try "#!/bin/sh\nstty -onlcr\nexec \"$@\"\n".write(to: wrapper, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper.path)
        let raw = abplayer.home.appending(path: "written.raw")
        let terminal = try TmuxTerminal(abplayer, name: "plain-repl", arguments: ["--output", "null", "--library", library],
                                        environment: ["TERM": "dumb"], columns: 80, rows: 24, wrapper: wrapper.path)
        defer { terminal.stop() }
        // Without the newline translation the lines stair-step and wrap anywhere: look for the
        // words with the white space taken out.
        func shows(_ text: String) -> Bool {
            let squeezed = text.filter { !$0.isWhitespace }
            return terminal.waitUntil { $0.filter { !$0.isWhitespace }.contains(squeezed) } != nil
        }
        try terminal.tmux(["pipe-pane", "-o", "cat >> '\(raw.path)'"]).requireSuccess()
        #expect(shows("abplayer />"), "\(terminal.screen())")

        // When a command is typed with a mistake taken back by Backspace, the book plays to its
        // end while the next command is half typed, and the Up key is pressed
        try terminal.send("play Plain Bookk", "BSpace", "Enter")
        #expect(shows("playing #"), "\(terminal.screen())")
        try terminal.send("sta")
        #expect(shows("the end"), "\(terminal.screen())")
        try terminal.send("tus", "Enter")
        #expect(shows("repeat off"), "\(terminal.screen())")
        try terminal.send("Up", "Enter")
        #expect(shows("unknown command"), "\(terminal.screen())")
        try terminal.send("quit", "Enter")

        // Then the commands ran as edited, and abplayer wrote whole lines only: no CR, no escape
        let written = try #require(Self.waitForFile(raw) { String(decoding: $0, as: UTF8.self).contains("unknown command") })
        let text = String(decoding: written, as: UTF8.self)
        #expect(text.contains("playing #1 Plain Book"), "\(text)")
        #expect(Self.plain(written), "\(Array(written))")
    }

    /// The file's bytes once `condition` holds for them (within 20 s), or nil.
    static func waitForFile(_ file: URL, _ condition: (Data) -> Bool) -> Data? {
        let clock = ContinuousClock()
        let start = clock.now
        while (clock.now - start).seconds < 20 {
            if let data = try? Data(contentsOf: file), condition(data) { return data }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return nil
    }
}
