import Foundation
import TestSupport
import Testing

/// The player screen (`now`, `abplayer now`) and the cover gallery (`art`) on a real terminal:
/// tmux (a pseudo-terminal) typed into with send-keys and read with capture-pane, the audio going
/// to a private PulseAudio's null sink so positions come from a real output's clock.
@Suite(.serialized) struct PlayerScreenTests {
    /// abplayer with `arguments` on an 80x30 terminal.
    static func screen(_ abplayer: AbplayerProcess, name: String, arguments: [String],
                       environment: [String: String]) throws -> TmuxTerminal {
        try TmuxTerminal(abplayer, name: name, arguments: arguments, environment: environment, columns: 80, rows: 30)
    }

    /// The shelf "Fiction" with "Blue Book" (no cover) and "Red Book": a 60 s MP3 with the
    /// chapters "Opening" and "Second" (at 30 s), then a 60 s MP3 carrying a test-pattern cover.
    static func library(_ name: String) throws -> (AbplayerProcess, String) {
        let abplayer = try AbplayerProcess(name)
        let cover = abplayer.home.appending(path: "cover.jpg")
        _ = try Command.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=s=160x120", "-frames:v", "1", cover.path])
            .requireSuccess()
        let red = abplayer.home.appending(path: "books/Red Book")
        let blue = abplayer.home.appending(path: "books/Blue Book")
        for folder in [red, blue] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let chaptered = try Fixtures.withChapters(try Fixtures.mp3(seconds: 60, vbr: false, id3: ID3Options(title: "Part 1")),
                                                  chapters: [(0, "Opening"), (30, "Second")], totalSeconds: 60)
        try FileManager.default.copyItem(at: chaptered, to: red.appending(path: "01.mp3"))
        try FileManager.default.copyItem(at: try Fixtures.mp3(seconds: 60, vbr: false, id3: ID3Options(title: "Part 2", cover: cover)),
                                         to: red.appending(path: "02.mp3"))
        try FileManager.default.copyItem(at: try Fixtures.mp3(seconds: 20, vbr: false), to: blue.appending(path: "01.mp3"))
        let library = abplayer.home.appending(path: "library.sqlite").path
        _ = try abplayer.run(["import", "--library", library, "--shelf", "Fiction", red.path, blue.path]).requireSuccess()
        return (abplayer, library)
    }

    /// Lines of the screen as shown, without trailing spaces.
    static func lines(_ screen: String) -> [String] {
        screen.split(separator: "\n", omittingEmptySubsequences: false).map { String($0) }
    }

    static let colorSequence = try! NSRegularExpression(pattern: "\u{1B}\\[[0-9;]*m")

    static func hasColor(_ text: String) -> Bool {
        colorSequence.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    static func blockSymbols(_ text: String) -> Int {
        text.unicodeScalars.filter { (0x2580...0x259F).contains($0.value) }.count
    }

    @Test func theGalleryPlaysAndTheScreenPausesSkipsResizesShowsArtAndReturnsToThePrompt() throws {
        // Given a library with two books on "Fiction", and the REPL in a colour terminal playing
        // into a private PulseAudio
        let (abplayer, library) = try Self.library("screen-pulse")
        let server = try PulseServer()
        let screen = try Self.screen(abplayer, name: "pulse", arguments: ["--output", "pulse", "--library", library],
                                environment: server.environment.merging(["TERM": "xterm-256color", "COLORTERM": "truecolor"]) { _, new in new })
        defer { screen.stop() }
        #expect(screen.waitFor("abplayer />") != nil, "\(screen.screen())")

        // When the gallery of "Fiction" shows: the first book has no cover, so a framed title card
        try screen.send("art Fiction", "Enter")
        let first = screen.waitFor("1/2  Blue Book")
        #expect(first?.contains("(no cover)") == true && first?.contains("┌") == true, "\(screen.screen())")
        // and → moves to the second book, whose cover is drawn with chafa's symbols in colour
        try screen.send("Right")
        let second = screen.waitUntil(escapes: true) { $0.contains("2/2  Red Book") && Self.blockSymbols($0) > 50 }
        #expect(second.map(Self.hasColor) == true, "\(second ?? screen.screen())")

        // and Enter plays it and shows the player screen with the book and its chapter
        try screen.send("Enter")
        #expect(screen.waitUntil { $0.contains("PLAYING") && $0.contains("Red Book") && $0.contains("chapter 1/3: Opening") } != nil,
                "\(screen.screen())")
        #expect(screen.waitFor("item 0:02 /") != nil, "position advances: \(screen.screen())")

        // When space is pressed, the screen says paused
        try screen.send("Space")
        #expect(screen.waitFor("PAUSED") != nil, "\(screen.screen())")
        // and → moves forward by the skip interval (30 s)
        try screen.send("q")
        #expect(screen.waitUntil { Self.lines($0).last { !$0.isEmpty } == "abplayer />" } != nil, "prompt back: \(screen.screen())")
        let paused = try screen.status()
        #expect(paused.state == "paused")
        let clock = ContinuousClock()
        let pausedAt = clock.now
        letRealTimePass(seconds: 1.5, because: "a paused player's position must not move as time passes")
        try screen.send("now", "Enter")
        #expect(screen.waitFor("PAUSED") != nil, "\(screen.screen())")
        try screen.send("Right")
        #expect(screen.waitFor("chapter 2/3: Second") != nil, "\(screen.screen())")
        try screen.send("q")
        #expect(screen.waitUntil { Self.lines($0).last { !$0.isEmpty } == "abplayer />" } != nil, "prompt back: \(screen.screen())")
        let skipped = try screen.status()
        // Then the position did not advance while paused (over at least a second, measured), but by the skip
        #expect((clock.now - pausedAt).seconds > 1)
        #expect(skipped.state == "paused")
        let moved = (skipped.bookPosition ?? 0) - (paused.bookPosition ?? 0)
        #expect(abs(moved - 30) < 0.3, "moved \(moved) s")

        // When ↑ and ] change volume and speed, b bookmarks and u undoes the skip
        try screen.send("now", "Enter")
        #expect(screen.waitFor("PAUSED") != nil, "\(screen.screen())")
        try screen.send("Up", "]")
        #expect(screen.waitFor("speed 1.1x  volume 105%") != nil, "\(screen.screen())")
        try screen.send("b")
        #expect(screen.waitUntil { $0.contains("bookmark 1 at 0:3") } != nil, "\(screen.screen())")
        try screen.send("u")
        #expect(screen.waitFor("back to 0:0") != nil, "\(screen.screen())")
        // and B lists the bookmarks on the screen, numbered as `bookmarks` numbers them, 1 goes to
        // the first (an undo point), u comes back
        try screen.send("B")
        #expect(screen.waitUntil { $0.contains("Bookmarks — Red Book") && $0.contains("> 1  0:3") } != nil, "\(screen.screen())")
        try screen.send("1")
        #expect(screen.waitUntil { $0.contains("at bookmark 1:") && $0.contains("PAUSED") } != nil, "\(screen.screen())")
        try screen.send("u")
        #expect(screen.waitFor("back to 0:0") != nil, "\(screen.screen())")
        // and s cycles the sleep timer: 15 minutes, then 30 (paused: not counting down)
        try screen.send("s")
        #expect(screen.waitFor("sleep 15:00 left") != nil, "\(screen.screen())")
        try screen.send("s")
        #expect(screen.waitFor("sleep 30:00 left") != nil, "\(screen.screen())")
        try screen.send("q")
        #expect(screen.waitUntil { Self.lines($0).last { !$0.isEmpty } == "abplayer />" } != nil, "prompt back: \(screen.screen())")
        // Then the prompt's status has them (the same commands ran), and the place is back before the skip
        let undone = try screen.status()
        #expect(abs((undone.bookPosition ?? 0) - (paused.bookPosition ?? 0)) < 0.3, "\(undone.bookPosition ?? -1) vs \(paused.bookPosition ?? -1)")
        try screen.send("bookmarks", "Enter")
        #expect(screen.waitUntil { Self.lines($0).contains { $0.hasPrefix("1  0:3") } } != nil, "\(screen.screen())")
        try screen.send("status", "Enter")
        #expect(screen.waitFor("speed 1.1x (this book)  skip 30 s (default)  volume 105% (boost)  output pulse") != nil, "\(screen.screen())")

        // When the window shrinks to 50x20 while the screen shows
        try screen.send("now", "Enter")
        #expect(screen.waitFor("PAUSED") != nil, "\(screen.screen())")
        try screen.tmux(["resize-window", "-x", "50", "-y", "20"]).requireSuccess()
        // Then it is redrawn at the new width: the bars end at column 50, no line is longer
        let narrow = screen.waitUntil { shown in
            Self.lines(shown).contains { $0.hasPrefix("[") && $0.count == 50 && $0.contains("book") }
        }
        #expect(narrow.map { Self.lines($0).allSatisfy { $0.count <= 50 } } == true, "\(screen.screen())")

        // When a shows the cover: many chafa symbols; a again is the player
        try screen.send("a")
        #expect(screen.waitUntil { Self.blockSymbols($0) > 50 && $0.contains("Red Book — a/q back") } != nil, "\(screen.screen())")
        try screen.send("a")
        #expect(screen.waitFor("PAUSED") != nil, "\(screen.screen())")

        // When q leaves, the prompt is back as it was, with what was typed before above it
        try screen.send("q")
        let prompt = screen.waitUntil { Self.lines($0).last { !$0.isEmpty } == "abplayer />" }
        #expect(prompt?.contains("abplayer /> now") == true, "\(screen.screen())")
        // and it still takes commands
        #expect(try screen.status().book == "Red Book")
    }

    @Test func abplayerNowResumesTheLastBookAndNoColorMeansNoColourSequence() throws {
        // Given a book played for a moment before
        let (abplayer, library) = try Self.library("screen-nocolor")
        _ = try abplayer.run(["-c", "play \"Red Book\"; seek 0:50", "--output", "null", "--library", library]).requireSuccess()

        // When `abplayer now` starts with NO_COLOR=1
        let screen = try Self.screen(abplayer, name: "nocolor", arguments: ["now", "--output", "null", "--library", library],
                                environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor", "NO_COLOR": "1"])
        defer { screen.stop() }
        // Then the player screen shows the book played last, paused where it was left, ready
        let shown = screen.waitUntil(escapes: true) { $0.contains("PAUSED") && $0.contains("Red Book") && $0.contains("book 0:50") }
        #expect(shown != nil, "\(screen.screen())")
        // and space plays it from there
        try screen.send("Space")
        #expect(screen.waitUntil { $0.contains("PLAYING") && $0.contains("book 0:5") } != nil, "\(screen.screen())")
        // and without any colour sequence, also on the cover
        #expect(shown.map(Self.hasColor) == false, "\(shown ?? "")")
        try screen.send("a")
        let art = screen.waitUntil(escapes: true) { Self.blockSymbols($0) > 50 }
        #expect(art.map(Self.hasColor) == false, "\(art ?? screen.screen())")
        // and unknown keys do nothing; q gives the prompt
        try screen.send("a", "x", "F5", "Z")
        try screen.send("q")
        #expect(screen.waitFor("abplayer />") != nil, "\(screen.screen())")
    }
}

extension PlayerScreenTests {
    @Test func ctrlCOnAScreenGoesBackToThePromptAndTheBookPlaysOn() throws {
        // Given the REPL playing "Red Book" with the player screen showing
        let (abplayer, library) = try Self.library("screen-ctrl-c")
        let screen = try Self.screen(abplayer, name: "ctrl-c", arguments: ["--output", "null", "--library", library],
                                     environment: ["TERM": "xterm-256color"])
        defer { screen.stop() }
        #expect(screen.waitFor("abplayer />") != nil, "\(screen.screen())")
        try screen.send("play \"Red Book\"", "Enter")
        try screen.send("now", "Enter")
        #expect(screen.waitUntil { $0.contains("PLAYING") && $0.contains("Red Book") } != nil, "\(screen.screen())")
        // When Ctrl-C is pressed on it
        try screen.send("C-c")
        // Then the prompt is back and the book still plays
        #expect(screen.waitFor("abplayer /> now") != nil, "\(screen.screen())")
        #expect(try screen.status().state == "playing", "\(screen.screen())")
        // and so from the library screen, also while a search is typed
        try screen.send("library", "Enter")
        #expect(screen.waitUntil { $0.contains("Blue Book") && !$0.contains("abplayer />") } != nil, "\(screen.screen())")
        try screen.send("/", "B", "l", "C-c")
        #expect(screen.waitFor("abplayer /> library") != nil, "\(screen.screen())")
        let status = try screen.status()
        #expect(status.state == "playing" && status.book == "Red Book", "\(screen.screen())")
    }

    @Test func withoutATerminalNowIsOnePlainLineAndArtListsTheBooks() throws {
        // Given a library, and commands from -c (not a terminal)
        let (abplayer, library) = try Self.library("screen-plain")
        let result = try abplayer.run(["-c", "now; play \"Red Book\"; seek 0:45; now; art Fiction", "--output", "null", "--library", library])
        let out = result.stdoutString
        // Then `now` with nothing ever played says so (and the script fails), the next `now` is one
        // plain status line, `art` lists the books, and no escape sequence is printed
        #expect(result.status != 0)
        #expect(result.stderr.contains("now: nothing is playing and no book has been played yet"), "\(result.stderr)")
        #expect(out.contains("Red Book — playing  item 1/2 0:45/1:00  chapter 2/3: Second  book 0:45/2:00"), "\(out)")
        #expect(out.contains("the player screen needs a terminal"))
        #expect(out.contains("Blue Book") && out.contains("the cover gallery needs a terminal"))
        #expect(!out.contains("\u{1B}"))
    }
}

extension PlayerScreenTests {
    @Test func atFortyByTenTheScreenKeepsItsTimesShowsTheAuthorOneBarAndAMessageForThreeSeconds() throws {
        // Given a one-file book by "Anne Author" with the chapters "Opening" and "Second" (at 30 s),
        // and the REPL in a 40x10 terminal
        let abplayer = try AbplayerProcess("screen-small")
        let folder = abplayer.home.appending(path: "books/Small Book")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let book = try Fixtures.withChapters(try Fixtures.mp3(seconds: 60, vbr: false, id3: ID3Options(title: "Small Book", artist: "Anne Author")),
                                             chapters: [(0, "Opening"), (30, "Second")], totalSeconds: 60)
        try FileManager.default.copyItem(at: book, to: folder.appending(path: "01.mp3"))
        let library = abplayer.home.appending(path: "library.sqlite").path
        _ = try abplayer.run(["import", "--library", library, folder.path]).requireSuccess()
        let screen = try TmuxTerminal(abplayer, name: "small", arguments: ["--output", "null", "--library", library],
                                      environment: ["TERM": "xterm-256color"], columns: 40, rows: 10)
        defer { screen.stop() }
        #expect(screen.waitFor("abplayer />") != nil, "\(screen.screen())")

        // When it plays and the player screen shows
        try screen.send("play \"Small Book\"", "Enter")
        try screen.send("now", "Enter")
        // Then the state, the title, the author, the chapter and the chapter's and book's bars with
        // their times fit in 40x10; no item bar repeats the book's, and the keys have gone
        let shown = screen.waitUntil { shown in
            let lines = Self.lines(shown)
            return shown.contains("PLAYING") && lines.contains("by Anne Author") && shown.contains("chapter 1/")
                && lines.contains { $0.hasPrefix("[") && $0.contains("] chapter 0:") }
                && lines.contains { $0.hasPrefix("[") && $0.contains("] book 0:") && $0.hasSuffix(" / 1:00") }
        }
        // (capture-pane ends with a newline: the empty string after it is no line of the screen)
        let lines = Array(Self.lines(shown ?? screen.screen()).dropLast())
        #expect(shown != nil, "\(lines)")
        #expect(lines.count <= 10 && lines.allSatisfy { $0.count <= 40 }, "\(lines)")
        #expect(!lines.contains { $0.contains("] item") || $0.contains("item 1/1") }, "\(lines)")
        #expect(!lines.contains { $0.contains("play/pause") || $0.contains("q back") }, "\(lines)")

        // When it is paused (nothing moves, so nothing else redraws) and → skips, which says where it is
        try screen.send("Space")
        #expect(screen.waitUntil { $0.contains("PAUSED") && !$0.contains("%)") } != nil, "\(screen.screen())")
        let clock = ContinuousClock()
        let sent = clock.now
        try screen.send("Right")
        // Then the answer shows on the message line, and is gone three seconds after it came, not sooner
        #expect(screen.waitFor("%)") != nil, "\(screen.screen())")
        let gone = screen.waitUntil(timeout: 20) { !$0.contains("%)") }
        #expect(gone != nil, "\(screen.screen())")
        #expect((clock.now - sent).seconds >= 3, "gone after \((clock.now - sent).seconds) s")
        #expect(gone?.contains("chapter 2/") == true && gone?.contains("PAUSED") == true, "\(gone ?? "")")
    }
}
