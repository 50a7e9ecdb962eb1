import Foundation
import TestSupport
import Testing

/// The library screen (`library`, L on the player screen) on a real terminal: tmux typed into
/// with send-keys and read with capture-pane, as a listener would see it, at 80x24 and 120x40.
@Suite(.serialized) struct LibraryScreenTests {
    /// "Fiction/Russian" with "Anna Karenina" (Leo Tolstoy, 3 min, left at 0:40 by an earlier
    /// run) and "The Idiot" (Fyodor Dostoevsky, 20 s); "Poetry" with "Leaves of Grass" (Walt
    /// Whitman, 20 s) and a book whose folder name holds an escape sequence.
    static func library(_ name: String) throws -> (AbplayerProcess, String) {
        let abplayer = try AbplayerProcess(name)
        let books = abplayer.home.appending(path: "books")
        let evil = "Evil\u{1B}[2J Tract"
        let made: [(folder: String, author: String, seconds: Int)] = [
            ("Anna Karenina", "Leo Tolstoy", 180), ("The Idiot", "Fyodor Dostoevsky", 20),
            ("Leaves of Grass", "Walt Whitman", 20), (evil, "Anonymous", 20),
        ]
        for book in made {
            let folder = books.appending(path: book.folder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: try Fixtures.mp3(seconds: book.seconds, vbr: false, id3: ID3Options(title: "Part 1", artist: book.author)),
                                             to: folder.appending(path: "01.mp3"))
        }
        let library = abplayer.home.appending(path: "library.sqlite").path
        _ = try abplayer.run(["import", "--library", library, "--shelf", "Fiction/Russian",
                              books.appending(path: "Anna Karenina").path, books.appending(path: "The Idiot").path]).requireSuccess()
        _ = try abplayer.run(["import", "--library", library, "--shelf", "Poetry",
                              books.appending(path: "Leaves of Grass").path, books.appending(path: evil).path]).requireSuccess()
        _ = try abplayer.run(["-c", "play \"Anna Karenina\"; seek 0:40", "--output", "null", "--library", library]).requireSuccess()
        return (abplayer, library)
    }

    static func lines(_ screen: String) -> [String] { PlayerScreenTests.lines(screen) }

    /// The book pane's selected row: marked `>` right after the rule between the panes.
    static func selectedBook(_ screen: String) -> String? {
        lines(screen).dropFirst(2).first { $0.contains("│>") }.map { String($0[$0.range(of: "│>")!.upperBound...]) }
    }

    static func atPrompt(_ screen: String) -> Bool { lines(screen).last { !$0.isEmpty } == "abplayer />" }

    @Test func at80x24TheShelvesAndBooksShowJKMoveSlashSearchesEnterResumesAndQGoesBack() throws {
        // Given the library, with Anna Karenina in progress, in an 80x24 colour terminal
        let (abplayer, library) = try Self.library("libscreen-80")
        let screen = try TmuxTerminal(abplayer, name: "lib80", arguments: ["--output", "null", "--library", library],
                                      environment: ["TERM": "xterm-256color"], columns: 80, rows: 24)
        defer { screen.stop() }
        #expect(screen.waitFor("abplayer />") != nil, "\(screen.screen())")

        // When `library` is typed
        try screen.send("library", "Enter")
        // Then the shelf tree and every book show, the one in progress first, with its author,
        // length and share listened (40 of 180 s)
        let shown = screen.waitFor("4 books, 1 in progress")
        #expect(shown != nil, "\(screen.screen())")
        let text = shown ?? ""
        #expect(text.contains("  ▾Fiction (2)") && text.contains("     Russian (2)") && text.contains("   Poetry (2)"), "\(text)")
        #expect(Self.selectedBook(text)?.contains("Anna Karenina") == true, "\(text)")
        let anna = Self.lines(text).first { $0.contains("Anna Karenina") } ?? ""
        #expect(anna.contains("Leo Tolstoy") && anna.contains("3:00") && anna.hasSuffix("22%"), "\(anna)")
        #expect(Self.lines(text).allSatisfy { $0.count <= 80 })
        // and the title from a folder name shows its escape visibly (the screen was not cleared)
        #expect(text.contains("Evil\\e[2J Tract"), "\(text)")

        // (Anna Karenina's loudness, measured in the background since the player started, is said
        // on the message line when known: once it is, it cannot replace the line read next. Seen
        // in a full run: it came after the watch's line.)
        #expect(waitUntil(within: 120, every: 0.2) {
            guard let status = try? abplayer.run(["remote", "--library", library, "status", "--json"]) else { return false }
            return !String(decoding: status.stdout, as: UTF8.self).contains("measuring")
        })
        // When a second part is copied into The Idiot's folder while the screen shows
        try FileManager.default.copyItem(at: try Fixtures.mp3(seconds: 20, vbr: false),
                                         to: abplayer.home.appending(path: "books/The Idiot/02.mp3"))
        // Then the library watch's line shows on the screen, and the book's new length with it
        let grown = screen.waitUntil { shown in
            shown.contains("library: The Idiot: 1 file added")
                && Self.lines(shown).contains { $0.contains("The Idiot") && $0.contains("0:40") }
        }
        #expect(grown != nil, "\(screen.screen())")

        // When another client renames The Idiot through this player's socket
        _ = try abplayer.run(["remote", "--library", library, "book rename 'The Idiot' 'The Idiot (1869)'"]).requireSuccess()
        // Then the screen reads the library again and shows the new title
        #expect(screen.waitUntil { $0.contains("The Idiot (1869)") } != nil, "\(screen.screen())")

        // When j moves down, then k back up
        try screen.send("j")
        #expect(screen.waitUntil { Self.selectedBook($0)?.contains("The Idiot") == true } != nil, "\(screen.screen())")
        try screen.send("k")
        #expect(screen.waitUntil { Self.selectedBook($0)?.contains("Anna Karenina") == true } != nil, "\(screen.screen())")

        // When / and "whit" are typed: only Walt Whitman's book is listed, as it is typed
        try screen.send("/", "w", "h", "i", "t")
        let found = screen.waitUntil { $0.contains("search “whit”: 1 found") }
        #expect(found.map { $0.contains("Leaves of Grass") && !$0.contains("Anna Karenina") && $0.contains("/whit") } == true,
                "\(screen.screen())")
        // and Esc ends the search: every book again
        try screen.send("Escape")
        #expect(screen.waitUntil { $0.contains("Anna Karenina") && $0.contains("The Idiot") && !$0.contains("found") } != nil,
                "\(screen.screen())")

        // When Home selects the book in progress and Enter plays it
        try screen.send("Home")
        #expect(screen.waitUntil { Self.selectedBook($0)?.contains("Anna Karenina") == true } != nil, "\(screen.screen())")
        try screen.send("Enter")
        // Then the player screen shows it playing from where it was left
        #expect(screen.waitUntil { $0.contains("PLAYING") && $0.contains("Anna Karenina") } != nil, "\(screen.screen())")
        // and q gives the prompt (the library was opened from it), whose status has the book
        // resumed near 0:40 rather than from its start
        try screen.send("q")
        #expect(screen.waitUntil(Self.atPrompt) != nil, "\(screen.screen())")
        let status = try screen.status()
        #expect(status.book == "Anna Karenina" && status.state == "playing")
        #expect((status.bookPosition ?? 0) > 25, "resumed at \(status.bookPosition ?? -1)")
    }

    @Test func fromThePlayerScreenLShowsTheBookPlayingMovingAndQReturnsToThePlayer() throws {
        // Given Anna Karenina playing on the player screen, in a 120x40 terminal (`abplayer now`
        // shows the book listened to last ready, paused; space plays it)
        let (abplayer, library) = try Self.library("libscreen-120")
        let screen = try TmuxTerminal(abplayer, name: "lib120", arguments: ["now", "--output", "null", "--library", library],
                                      environment: ["TERM": "xterm-256color"], columns: 120, rows: 40)
        defer { screen.stop() }
        #expect(screen.waitUntil { $0.contains("PAUSED") && $0.contains("Anna Karenina") } != nil, "\(screen.screen())")
        try screen.send("Space")
        #expect(screen.waitUntil { $0.contains("PLAYING") && $0.contains("Anna Karenina") } != nil, "\(screen.screen())")
        #expect(screen.screen().contains("L library"))

        // When L opens the library
        try screen.send("L")
        let first = screen.waitFor("4 books, 1 in progress")
        #expect(first != nil, "\(screen.screen())")
        // Then the book playing is marked, and its share listened moves while it plays (redrawn
        // from the engine's events, no key pressed)
        func annaPercent(_ shown: String) -> String? {
            Self.lines(shown).first { $0.contains("▶ Anna Karenina") }?.split(separator: " ").last.map(String.init)
        }
        let before = annaPercent(first ?? "")
        #expect(before != nil, "\(first ?? "")")
        #expect(screen.waitUntil { annaPercent($0).map { $0 != before } == true } != nil, "still \(before ?? "?"): \(screen.screen())")
        #expect(Self.lines(screen.screen()).allSatisfy { $0.count <= 120 })

        // When Tab goes to the shelves, j j j selects "Fiction": its books only
        try screen.send("Tab", "j", "j")
        #expect(screen.waitUntil { $0.contains("> ▾Fiction (2)") && !$0.contains("Leaves of Grass") } != nil, "\(screen.screen())")
        // and ← folds it; End goes to the last shelf, whose books show; PgUp back to the top
        try screen.send("Left")
        #expect(screen.waitUntil { $0.contains("> ▸Fiction (2)") && !$0.contains("Russian") } != nil, "\(screen.screen())")
        try screen.send("End")
        #expect(screen.waitUntil { $0.contains(">  Poetry (2)") && $0.contains("Leaves of Grass") && !$0.contains("The Idiot") } != nil,
                "\(screen.screen())")
        try screen.send("PageUp")
        #expect(screen.waitUntil { $0.contains("> All books (4)") } != nil, "\(screen.screen())")

        // When q: back to the player screen it was opened from, still playing; q again: the prompt
        try screen.send("q")
        #expect(screen.waitUntil { $0.contains("PLAYING") && $0.contains("item 1/1") } != nil, "\(screen.screen())")
        try screen.send("q")
        #expect(screen.waitUntil(Self.atPrompt) != nil, "\(screen.screen())")
    }

    @Test func noColorHasNoColourSequenceAndADumbTerminalGetsThePlainList() throws {
        let (abplayer, library) = try Self.library("libscreen-plain")
        // Given NO_COLOR in a terminal that moves the cursor
        let colorless = try TmuxTerminal(abplayer, name: "nocolor", arguments: ["--output", "null", "--library", library],
                                         environment: ["TERM": "xterm-256color", "NO_COLOR": "1"], columns: 80, rows: 24)
        #expect(colorless.waitFor("abplayer />") != nil, "\(colorless.screen())")
        try colorless.send("library", "Enter")
        // Then the screen shows without one colour sequence
        let shown = colorless.waitUntil(escapes: true) { $0.contains("4 books, 1 in progress") && $0.contains("Leaves of Grass") }
        #expect(shown.map(PlayerScreenTests.hasColor) == false, "\(shown ?? colorless.screen())")
        colorless.stop()

        // Given TERM=dumb
        let dumb = try TmuxTerminal(abplayer, name: "dumb", arguments: ["--output", "null", "--library", library],
                                    environment: ["TERM": "dumb"], columns: 80, rows: 24)
        #expect(dumb.waitFor("abplayer />") != nil, "\(dumb.screen())")
        // When `library` is typed: a numbered plain list, in progress first, that takes a number
        try dumb.send("library", "Enter")
        let plain = dumb.waitFor("type a book's number to play it")
        #expect(plain != nil, "\(dumb.screen())")
        let listed = Self.lines(plain ?? "").filter { $0.first?.isNumber == true }
        #expect(listed.count == 4 && listed.first?.hasPrefix("1. /") == true && listed.first?.contains("Anna Karenina — Leo Tolstoy") == true, "\(listed)")
        #expect(listed.contains { $0.contains(". /Poetry  ") && $0.contains("Leaves of Grass") && $0.hasSuffix("0%") }, "\(listed)")
        // and after an empty line (back) the prompt takes commands again
        try dumb.send("Enter")
        try dumb.send("ls", "Enter")
        #expect(dumb.waitFor("Poetry/") != nil, "\(dumb.screen())")
        // (A second player on the same library would be the first one's client.)
        dumb.stop()

        // and from a script (not a terminal) the same list, and no escape sequence
        let result = try abplayer.run(["-c", "library", "--output", "null", "--library", library]).requireSuccess()
        #expect(result.stdoutString.contains("/Fiction/Russian  #") && result.stdoutString.contains("Evil\\e[2J Tract"), "\(result.stdoutString)")
        #expect(!result.stdoutString.contains("\u{1B}"))
    }
}
