@testable import Console
import Foundation
import Library
import Testing

@Suite struct LibraryScreenLayoutTests {
    static let color = ScreenStyle(mode: .color, coverColors: .truecolor)
    static let monochrome = ScreenStyle(environment: ["TERM": "xterm-256color", "NO_COLOR": "1"], isTerminal: true)

    /// The text of a line as seen on the terminal: without SGR sequences.
    static func visible(_ line: String) -> String {
        line.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    static func shelf(_ id: Int64, _ path: String, parent: Int64? = nil) -> LibraryCatalog.Shelf {
        LibraryCatalog.Shelf(id: id, parentId: parent, path: path, depth: path.count(where: { $0 == "/" }))
    }

    static func book(_ id: Int64, _ title: String, shelf: Int64?, author: String? = nil, narrator: String? = nil,
                     hours: Double = 1, at position: Double? = nil, finished: Bool = false, listened: Double = 0) -> BookSummary {
        BookSummary(id: id, shelfId: shelf, title: title, author: author, narrator: narrator, seriesNumber: nil,
                    durationSeconds: hours * 3600, positionSeconds: position, finished: finished,
                    lastListened: position.map { _ in Date(timeIntervalSince1970: listened) })
    }

    /// Fiction (Russian (Tolstoy), French) and Poetry, five books.
    static let shelves = [shelf(1, "Fiction"), shelf(2, "Fiction/French", parent: 1), shelf(3, "Fiction/Russian", parent: 1),
                          shelf(4, "Fiction/Russian/Tolstoy", parent: 3), shelf(5, "Poetry")]
    static let books = [
        book(10, "Anna Karenina", shelf: 4, author: "Leo Tolstoy", narrator: "Maggie Gyllenhaal", hours: 38),
        book(11, "War and Peace", shelf: 4, author: "Leo Tolstoy", hours: 61, at: 61 * 1800, listened: 100),
        book(12, "The Idiot", shelf: 3, author: "Fyodor Dostoevsky", hours: 24, finished: true),
        book(13, "Madame Bovary", shelf: 2, author: "Gustave Flaubert", hours: 12, at: 3600, listened: 200),
        book(14, "Leaves of Grass", shelf: 5, author: "Walt Whitman", hours: 2),
    ]

    static func titles(_ browser: LibraryBrowser) -> [String] { browser.listed.map { browser.books[$0].title } }

    static func press(_ keys: [Key], _ browser: inout LibraryBrowser, height: Int = 20) -> [LibraryBrowser.Action] {
        keys.compactMap { browser.handle($0, pageHeight: height) }
    }

    static func typed(_ text: String) -> [Key] { text.map { .character($0) } }

    @Test func columnsFitEightyAndOneHundredTwentyWide() throws {
        for (columns, rows) in [(80, 24), (120, 40), (200, 50), (40, 10), (20, 6), (12, 3)] {
            // Given the library on a screen of that size
            let size = ScreenSize(columns: columns, rows: rows)
            let lines = LibraryScreenLayout(browser: LibraryBrowser(shelves: Self.shelves, books: Self.books))
                .lines(size: size, style: Self.color)
            // Then it fills the screen, no line wider than it
            #expect(lines.count == rows)
            for line in lines { #expect(TextFit.cells(Self.visible(line)) <= columns, "\(columns): \(Self.visible(line))") }
            // and the panes are split by one rule on every pane row
            let left = LibraryScreenLayout.shelfWidth(columns: columns)
            for line in lines[1..<(rows - 2)] where rows > 4 { #expect(Array(Self.visible(line))[left] == "│", "\(Self.visible(line))") }
        }
        // and at 80 and 120 a book row has its title, author, length, bar and percentage
        for columns in [80, 120] {
            let lines = LibraryScreenLayout(browser: LibraryBrowser(shelves: Self.shelves, books: Self.books))
                .lines(size: ScreenSize(columns: columns, rows: 24), style: Self.monochrome)
            let row = try #require(lines.first { $0.contains("War and Peace") })
            #expect(row.contains("Leo Tolstoy") && row.contains("61:00:00") && row.contains("█") && row.hasSuffix(" 50%"), "\(row)")
            #expect(TextFit.cells(row) == columns, "\(row)")
        }
    }

    @Test func booksInProgressComeFirstTheLastListenedToFirst() {
        // Given two books in progress (Madame Bovary listened to after War and Peace), one finished
        let browser = LibraryBrowser(shelves: Self.shelves, books: Self.books)
        // Then "All books" lists those in progress first, then the others by shelf path and title
        #expect(browser.selectedEntry == .all)
        #expect(Self.titles(browser) == ["Madame Bovary", "War and Peace", "The Idiot", "Anna Karenina", "Leaves of Grass"])
        #expect(browser.inProgressCount == 2)
        // and the in-progress entry has only those
        var inProgress = browser
        _ = Self.press([.tab, .down], &inProgress)
        #expect(inProgress.selectedEntry == .inProgress)
        #expect(Self.titles(inProgress) == ["Madame Bovary", "War and Peace"])
    }

    @Test func theBarShowsTheShareListenedAndMovesWithThePlayingBook() throws {
        let browser = LibraryBrowser(shelves: Self.shelves, books: Self.books)
        let size = ScreenSize(columns: 120, rows: 24)
        func row(_ title: String, _ playing: LibraryScreenLayout.Playing?) throws -> String {
            let lines = LibraryScreenLayout(browser: browser, playing: playing).lines(size: size, style: Self.monochrome)
            return try #require(lines.first { $0.contains(title) })
        }
        func filled(_ row: String) -> Double {
            Double(row.count(where: { $0 == "█" })) / Double(row.count(where: { $0 == "█" || $0 == "░" }))
        }
        // Given War and Peace half listened, The Idiot finished, Anna Karenina not started
        #expect(abs(try filled(row("War and Peace", nil)) - 0.5) < 0.1)
        #expect(try filled(row("The Idiot", nil)) == 1 && (try row("The Idiot", nil)).hasSuffix("100%"))
        #expect(try filled(row("Anna Karenina", nil)) == 0 && (try row("Anna Karenina", nil)).hasSuffix(" 0%"))
        // When Anna Karenina plays, at three quarters: its row is marked and its bar follows
        let playing = LibraryScreenLayout.Playing(bookId: 10, positionSeconds: 38 * 3600 * 0.75)
        let moving = try row("Anna Karenina", playing)
        #expect(moving.contains("▶") && moving.hasSuffix("75%") && abs(filled(moving) - 0.75) < 0.1, "\(moving)")
        #expect(!(try row("War and Peace", playing)).contains("▶"))
    }

    @Test func searchFiltersTitleAuthorAndNarratorAsTyped() {
        // Given the browser on the "Poetry" shelf
        var browser = LibraryBrowser(shelves: Self.shelves, books: Self.books)
        _ = Self.press([.tab, .end], &browser)
        #expect(Self.titles(browser) == ["Leaves of Grass"])
        // When / and "tol" are typed: every book whose author has it, whatever the shelf
        _ = Self.press([.character("/")] + Self.typed("TOL"), &browser)
        #expect(browser.isTyping && browser.query == "TOL")
        #expect(Self.titles(browser) == ["War and Peace", "Anna Karenina"])
        // and a narrator matches too; Backspace widens again
        _ = Self.press([.backspace, .backspace, .backspace] + Self.typed("gyllen"), &browser)
        #expect(Self.titles(browser) == ["Anna Karenina"])
        // and q while typing is a letter, not "back"
        let actions = Self.press(Self.typed("q"), &browser)
        #expect(actions.isEmpty && browser.listed.isEmpty)
        let lines = LibraryScreenLayout(browser: browser).lines(size: ScreenSize(columns: 80, rows: 24), style: Self.monochrome)
        #expect(lines.contains { $0.hasPrefix("/gyllenq▏") }, "\(lines)")
        // When Enter ends the search: the matches stay, Enter then plays the one selected
        _ = Self.press([.backspace, .enter], &browser)
        #expect(!browser.isTyping && Self.titles(browser) == ["Anna Karenina"])
        #expect(Self.press([.enter], &browser) == [.play(bookId: 10)])
        // When Esc: the search is dropped (the shelf's books again); Esc once more goes back
        _ = Self.press([.escape], &browser)
        #expect(browser.query.isEmpty && Self.titles(browser) == ["Leaves of Grass"])
        #expect(Self.press([.escape], &browser) == [.back])
    }

    @Test func searchIgnoresCaseInAnyScript() {
        // Given Russian and accented names
        var browser = LibraryBrowser(shelves: [], books: [
            Self.book(1, "Война и мир", shelf: nil, author: "Лев Толстой"), Self.book(2, "Émile", shelf: nil, author: "Jean-Jacques Rousseau"),
            Self.book(3, "Über allen Gipfeln", shelf: nil, author: "Goethe"),
        ])
        // When each is searched for in the other case
        _ = Self.press([.character("/")] + Self.typed("ТОЛСТ"), &browser)
        #expect(Self.titles(browser) == ["Война и мир"])
        _ = Self.press(Array(repeating: .backspace, count: 5) + Self.typed("éMI"), &browser)
        #expect(Self.titles(browser) == ["Émile"])
        _ = Self.press(Array(repeating: .backspace, count: 3) + Self.typed("üb"), &browser)
        #expect(Self.titles(browser) == ["Über allen Gipfeln"])
        // and a needle longer than every text matches nothing, the empty one everything
        _ = Self.press(Self.typed(String(repeating: "x", count: 80)), &browser)
        #expect(browser.listed.isEmpty)
        #expect(LibraryBrowser.contains(Array("abc".utf8), []) && !LibraryBrowser.contains(Array("ab".utf8), Array("abc".utf8)))
    }

    @Test func theShelfTreeNestsFoldsAndListsWhatIsBelowAShelf() throws {
        var browser = LibraryBrowser(shelves: Self.shelves, books: Self.books)
        let lines = { LibraryScreenLayout(browser: browser).lines(size: ScreenSize(columns: 80, rows: 24), style: Self.monochrome) }
        // Given the tree: each level indented two more, with the books of its subtree counted
        #expect(lines().contains { $0.hasPrefix("  ▾Fiction (4)") })
        #expect(lines().contains { $0.hasPrefix("    ▾Russian (3)") })
        #expect(lines().contains { $0.hasPrefix("       Tolstoy (2)") })
        // When "Russian" is selected: the books on it and below it
        _ = Self.press([.tab, .down, .down, .down, .down], &browser)
        #expect(Self.titles(browser) == ["War and Peace", "The Idiot", "Anna Karenina"])
        #expect(lines().contains { $0.hasPrefix(">   ▾Russian (3)") })
        // When ← folds it: Tolstoy is hidden; ← again goes to its parent; → unfolds
        _ = Self.press([.left], &browser)
        #expect(!lines().contains { $0.contains("Tolstoy (2)") } && lines().contains { $0.hasPrefix(">   ▸Russian (3)") })
        _ = Self.press([.down], &browser)
        #expect(lines().contains { $0.hasPrefix(">  Poetry (1)") }, "\(lines())")
        _ = Self.press([.up, .right, .down], &browser)
        #expect(lines().contains { $0.hasPrefix(">      Tolstoy (2)") }, "\(lines())")
        _ = Self.press([.left], &browser)
        #expect(lines().contains { $0.hasPrefix(">   ▾Russian (3)") }, "up to the parent: \(lines())")
        // and → on an open shelf, Enter, or Tab go to the books pane; j selects the next book
        _ = Self.press([.right, .character("j")], &browser)
        #expect(browser.focus == .books && browser.selectedBook?.title == "The Idiot")
        #expect(Self.press([.character("q")], &browser) == [.back])
    }

    @Test func aLibraryReadAgainKeepsTheShelfSearchAndSelection() {
        // Given "Russian" folded, then "Poetry" selected, a search for "a" kept, "War and Peace" selected
        var browser = LibraryBrowser(shelves: Self.shelves, books: Self.books)
        _ = Self.press([.tab, .down, .down, .down, .down, .left, .down, .character("/"), .character("a"), .enter,
                        .character("g"), .character("j")], &browser)
        #expect(browser.query == "a" && browser.selectedBook?.title == "War and Peace")
        // When the library is read again with a new book matching the search, and French gone
        let added = Self.books + [Self.book(15, "A New Arrival", shelf: 5, author: "Someone")]
        var again = LibraryBrowser(shelves: Self.shelves.filter { $0.id != 2 }, books: added.filter { $0.shelfId != 2 })
        again.carryOver(browser)
        // Then the same shelf, search, focus and book are selected, "Russian" still folded
        #expect(again.selectedEntry == .shelf(3) && again.folded == [3] && again.focus == .books)
        #expect(again.query == "a" && again.selectedBook?.title == "War and Peace")
        #expect(Self.titles(again).contains("A New Arrival") && !Self.titles(again).contains("Madame Bovary"))
    }

    @Test func anEmptyLibrarySaysHowToFillIt() {
        let lines = LibraryScreenLayout(browser: LibraryBrowser(shelves: [], books: []))
            .lines(size: ScreenSize(columns: 80, rows: 24), style: Self.monochrome)
        #expect(lines.contains { $0.contains("'import FOLDER'") } && lines[0].hasPrefix("abplayer library — 0 books"))
        var browser = LibraryBrowser(shelves: [], books: [])
        #expect(Self.press([.enter, .end, .pageDown, .character("j")], &browser).isEmpty)
    }

    @Test func aLongShelfNameIsCutBeforeItsCount() throws {
        let shelves = [Self.shelf(1, "A shelf with a name far longer than the pane is wide")]
        let lines = LibraryScreenLayout(browser: LibraryBrowser(shelves: shelves, books: [Self.book(1, "B", shelf: 1)]))
            .lines(size: ScreenSize(columns: 80, rows: 24), style: Self.monochrome)
        let row = try #require(lines.first { $0.hasPrefix("   A shelf") })
        #expect(row.hasPrefix("   A shelf with… (1)│"), "\(row)")
    }

    @Test func tenThousandBooksScrollToKeepTheSelectionInView() throws {
        // Given 10,000 books on one shelf
        let books = (0..<10_000).map { Self.book(Int64($0 + 1), "Book \(String(format: "%05d", $0))", shelf: 5) }
        var browser = LibraryBrowser(shelves: Self.shelves, books: books)
        let size = ScreenSize(columns: 80, rows: 24)
        let height = LibraryScreenLayout.paneHeight(size)
        func shown() -> [String] { LibraryScreenLayout(browser: browser).lines(size: size, style: Self.monochrome) }
        func selectedRow() throws -> String { try #require(shown().dropFirst(2).first { $0.contains("│> ") }) }
        // When End is pressed: the last book is selected, on the last pane row
        _ = Self.press([.end], &browser, height: height)
        #expect(browser.bookSelection == 9999)
        #expect(try selectedRow().contains("Book 09999"))
        #expect(shown()[1 + height].contains("Book 09999"), "\(shown())")
        // When PgUp: a page less one up, and the window scrolls only as much as needed
        _ = Self.press([.pageUp], &browser, height: height)
        #expect(browser.bookSelection == 9999 - (height - 1))
        #expect(shown()[2].contains("│> ") && shown()[2].contains("Book \(String(format: "%05d", 9999 - (height - 1)))"))
        // When Home, then k (nothing above) and 25 j's
        _ = Self.press([.home, .character("k")] + Array(repeating: .character("j"), count: 25), &browser, height: height)
        #expect(browser.bookSelection == 25 && browser.bookTop == 25 - height + 1)
        #expect(try selectedRow().contains("Book 00025"))
        #expect(shown().count == 24)
        // and only the lengths of the books shown are wanted, those coming into view after
        // a move, none once read
        var unread = LibraryBrowser(shelves: Self.shelves, books: books.map {
            BookSummary(id: $0.id, shelfId: 5, title: $0.title, author: nil, narrator: nil, seriesNumber: nil,
                        durationSeconds: nil, positionSeconds: nil, finished: false)
        })
        #expect(unread.booksWithoutLength(height: height) == Array(1...Int64(height)))
        #expect(LibraryScreenLayout(browser: unread).lines(size: size, style: Self.monochrome)[2].contains(" ? "))
        unread.learn(Dictionary(uniqueKeysWithValues: (1...Int64(height)).map { ($0, 60.0) }))
        #expect(unread.booksWithoutLength(height: height).isEmpty)
        #expect(LibraryScreenLayout(browser: unread).lines(size: size, style: Self.monochrome)[2].contains(" 1:00 "))
        _ = Self.press([.pageDown, .pageDown], &unread, height: height)
        #expect(unread.booksWithoutLength(height: height) == Array(Int64(height + 1)...Int64(2 * height - 1)))
        // and a search over all of them keeps the listing in memory
        _ = Self.press([.character("/")] + Self.typed("09998"), &browser, height: height)
        #expect(Self.titles(browser) == ["Book 09998"])
    }

    @Test func controlCharactersFromTagsAreShownVisiblyNeverSent() throws {
        // Given a title that would retitle the window and clear the screen, an author with a
        // newline and a C1 CSI, a shelf name with BEL
        let evil = [Self.shelf(1, "Shelf\u{07}Bell")]
        let books = [Self.book(1, "Title\u{1B}]0;pwned\u{07}\u{1B}[2J", shelf: 1, author: "Line\nTwo\u{9B}31m", at: 60)]
        let browser = LibraryBrowser(shelves: evil, books: books)
        for style in [Self.color, Self.monochrome] {
            let lines = LibraryScreenLayout(browser: browser, message: "\u{1B}[31mred").lines(size: ScreenSize(columns: 120, rows: 24), style: style)
            let text = lines.map(Self.visible).joined(separator: "\n")
            // Then no control character reaches the terminal but the layout's own colours
            #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) }, "\(text)")
            #expect(text.contains("Title\\e]0;pwned\\x07\\e[2J") && text.contains("Line\\nTwo\\u009B31m"), "\(text)")
            #expect(text.contains("Shelf\\x07Bell"))
        }
    }

    @Test func noColorMeansNoEscapeSequenceAndTheSelectionStillShows() {
        // Given NO_COLOR in a terminal that can move the cursor
        let browser = LibraryBrowser(shelves: Self.shelves, books: Self.books)
        #expect(Self.monochrome.mode == .monochrome)
        let plain = LibraryScreenLayout(browser: browser).lines(size: ScreenSize(columns: 80, rows: 24), style: Self.monochrome)
        // Then not one escape sequence; the selection is marked with > and the focus in the headings
        #expect(!plain.joined().contains("\u{1B}"))
        #expect(plain.contains { $0.hasPrefix("> All books (5)") } && plain.dropFirst(2).contains { $0.contains("│>  Madame Bovary") })
        #expect(plain[1].contains("│>"), "\(plain[1])")
        // while in colour the selected rows and the title are in reverse video
        let colored = LibraryScreenLayout(browser: browser).lines(size: ScreenSize(columns: 80, rows: 24), style: Self.color)
        #expect(colored[0].hasPrefix("\u{1B}[1;7m") && colored.contains { $0.contains("\u{1B}[7m> ") })
    }
}
