@testable import Console
import Foundation
import PlayerCore
import Synchronization
import Testing

/// The player screen (`now`) on small windows: what goes first (blank lines, the keys, the
/// cover) and what stays (the times and bars), the author, a one-file book, and the message
/// line's few seconds.
@Suite struct PlayerScreenFitTests {
    typealias Screen = PlayerScreenLayoutTests

    /// A cover of `▓` drawn into the box it is given (8 cells by 4 at the least), in colour, as
    /// `CoverArt` draws one: every line the same width, each ending with a reset.
    static func cover(maxColumns: Int, maxRows: Int) -> CoverArt? {
        let rows = min(maxRows, maxColumns / 2)
        return CoverArt(lines: Array(repeating: "\u{1B}[38;5;1m" + String(repeating: "▓", count: rows * 2) + "\u{1B}[0m", count: rows),
                        columns: rows * 2)
    }

    static func layout(author: String? = "Fyodor Dostoevsky", message: String? = nil, withCover: Bool = false) throws -> PlayerScreenLayout {
        var layout = PlayerScreenLayout(status: try Screen.status(author: author), message: message)
        if withCover { layout.cover = Self.cover }
        return layout
    }

    /// The bars with their times: the chapter's, the item's and the book's.
    static let bars = ["chapter 1:30 / 5:00", "item 2:30 / 10:00", "book 12:30 / 50:00"]

    @Test func atFortyByTenTheBarsAndTimesStayAndTheKeysGo() throws {
        // Given a book of many files with chapters on a 40x10 window, with a message and without
        for message in [nil, "2:47 / 4:40 (59%) · chapter 4/5: Four"] {
            let lines = try Self.layout(message: message).lines(size: ScreenSize(columns: 40, rows: 10), style: Screen.color).map(Screen.visible)
            // Then it fits, and every bar with its times shows, the state, the title and the chapter
            #expect(lines.count <= 10 && lines.allSatisfy { TextFit.cells($0) <= 40 }, "\(lines)")
            for bar in Self.bars {
                #expect(lines.contains { $0.hasPrefix("[") && $0.hasSuffix(bar) }, "\(bar) in \(lines)")
            }
            for shown in ["PAUSED", "The Brothers Karamazov", "chapter 5/40: Rebellion"] {
                #expect(lines.contains { $0.contains(shown) }, "\(shown) in \(lines)")
            }
            // and the message when there is one
            if let message { #expect(lines.contains(message), "\(lines)") }
            // and no key help: it went first
            #expect(!lines.contains { $0.contains("play/pause") || $0.contains("q back") }, "\(lines)")
        }
    }

    @Test func aCoverShowsBesideTheDetailsWhenThereIsRoomAndGoesBeforeTheTimes() throws {
        // Given a book with a cover
        let layout = try Self.layout(message: "bookmarked #3 at 12:30", withCover: true)
        // When the window is 80x24
        let wide = layout.lines(size: ScreenSize(columns: 80, rows: 24), style: Screen.color).map(Screen.visible)
        // Then the cover is at the top left, the details beside it, the keys and message the whole width below
        #expect(wide.count <= 24 && wide.allSatisfy { TextFit.cells($0) <= 80 }, "\(wide)")
        #expect(wide[0].hasPrefix("▓▓▓▓▓▓▓▓") && wide[0].contains("PAUSED"), "\(wide)")
        #expect(wide.contains { $0.hasPrefix("▓▓▓▓▓▓▓▓") && $0.hasSuffix(Self.bars[2]) }, "\(wide)")
        #expect(wide.contains("bookmarked #3 at 12:30") && wide.last?.hasSuffix("q back") == true, "\(wide)")
        // When the window is 40x10: no cover, the bars and times stay
        let small = layout.lines(size: ScreenSize(columns: 40, rows: 10), style: Screen.color).map(Screen.visible)
        #expect(small.count <= 10 && small.allSatisfy { TextFit.cells($0) <= 40 }, "\(small)")
        #expect(!small.joined().contains("▓"), "\(small)")
        for bar in Self.bars { #expect(small.contains { $0.hasSuffix(bar) }, "\(bar) in \(small)") }
        // and a book whose cover cannot be drawn is laid out as one without
        var coverless = try Self.layout(message: "bookmarked #3 at 12:30")
        let without = coverless.lines(size: ScreenSize(columns: 80, rows: 24), style: Screen.color)
        coverless.cover = { _, _ in nil }
        #expect(coverless.lines(size: ScreenSize(columns: 80, rows: 24), style: Screen.color) == without)
        // and at 80x10 the keys go, not the cover
        let short = layout.lines(size: ScreenSize(columns: 80, rows: 10), style: Screen.color).map(Screen.visible)
        #expect(short.count <= 10 && short[0].hasPrefix("▓▓▓▓▓▓▓▓") && !short.contains { $0.contains("q back") }, "\(short)")
    }

    @Test func everySizeFromFortyByTenToEightyByTwentyFourFitsWithItsTimes() throws {
        // Given the screen with and without a cover and a message
        for layout in [try Self.layout(), try Self.layout(message: "at bookmark #6: 0:01 / 0:05 (32%) · chapter 1/2: One, 0:01 / 0:02; 'undo' goes back", withCover: true)] {
            for columns in 40...80 {
                for rows in 10...24 {
                    // When it is laid out at that size
                    let lines = layout.lines(size: ScreenSize(columns: columns, rows: rows), style: Screen.color).map(Screen.visible)
                    // Then no line is wider, none too many, and the times of every bar are there
                    #expect(lines.count <= rows, "\(columns)x\(rows): \(lines)")
                    #expect(lines.allSatisfy { TextFit.cells($0) <= columns }, "\(columns)x\(rows): \(lines)")
                    for bar in Self.bars {
                        #expect(lines.contains { $0.hasSuffix(bar) }, "\(columns)x\(rows): \(bar) in \(lines)")
                    }
                }
            }
        }
    }

    @Test func theAuthorShowsUnderTheTitleCutToTheWidthAndMadeVisible() throws {
        // Given a book whose author is long, and one whose author holds an escape sequence
        let long = try Self.layout(author: String(repeating: "Fyodor Mikhailovich Dostoevsky ", count: 3))
            .lines(size: ScreenSize(columns: 40, rows: 12), style: Screen.monochrome)
        let hostile = try Self.layout(author: "Evil\u{1B}[2JAuthor").lines(size: ScreenSize(columns: 80, rows: 24), style: Screen.monochrome)
        // Then the author is the line under the title, cut with an ellipsis at the width
        let title = try #require(long.firstIndex(of: "The Brothers Karamazov"), "\(long)")
        #expect(long[title + 1].hasPrefix("by Fyodor Mikhailovich") && long[title + 1].hasSuffix("…") && TextFit.cells(long[title + 1]) == 40,
                "\(long)")
        // and the escape sequence is shown, not sent to the terminal
        #expect(!hostile.joined().contains("\u{1B}"), "\(hostile)")
        #expect(hostile.contains { $0.hasPrefix("by Evil") && $0.hasSuffix("Author") }, "\(hostile)")
        // and a book without an author has no such line
        let none = try Self.layout(author: nil).lines(size: ScreenSize(columns: 80, rows: 24), style: Screen.monochrome)
        #expect(!none.contains { $0.hasPrefix("by ") }, "\(none)")
    }

    @Test func aOneFileBookShowsOneBarNotAnItemBarRepeatingTheBook() throws {
        // Given a one-file book (an M4B) with chapters, and one without
        var chaptered = try Screen.status(author: "Anon")
        (chaptered.itemNumber, chaptered.itemCount, chaptered.itemPosition, chaptered.itemDuration) = (1, 1, 750, 3000)
        chaptered.item = chaptered.book
        chaptered.chapterStart = 660
        var plain = chaptered
        (plain.chapter, plain.chapterNumber, plain.chapterCount, plain.chapterStart, plain.chapterDuration) = (nil, nil, 0, nil, nil)
        for status in [chaptered, plain] {
            let lines = PlayerScreenLayout(status: status).lines(size: ScreenSize(columns: 80, rows: 24), style: Screen.color).map(Screen.visible)
            // Then no item line or bar, the book's bar once
            #expect(!lines.contains { $0.hasPrefix("item ") || $0.contains("] item") || $0.contains("left in item") }, "\(lines)")
            #expect(lines.filter { $0.hasPrefix("[") && $0.hasSuffix("book 12:30 / 50:00") }.count == 1, "\(lines)")
            // and the file's own title on a line (no bar) only when it is not the book's
            var named = status
            named.item = "Part One"
            let namedLines = PlayerScreenLayout(status: named).lines(size: ScreenSize(columns: 80, rows: 24), style: Screen.color).map(Screen.visible)
            #expect(namedLines.contains("item 1/1: Part One") && !namedLines.contains { $0.contains("] item") }, "\(namedLines)")
            // and the chapter's bar and time left when it has chapters; else the book's time left
            if status.chapterCount > 0 {
                #expect(lines.contains { $0.hasPrefix("[") && $0.hasSuffix("chapter 1:30 / 5:00") }, "\(lines)")
                #expect(lines.contains("2:20 left in chapter, 25:00 in book at 1.5x"), "\(lines)")
            } else {
                #expect(lines.filter { $0.hasPrefix("[") }.count == 1, "\(lines)")
                #expect(lines.contains("25:00 left in book at 1.5x"), "\(lines)")
            }
        }
    }

    @Test func aMessageGoesAfterThreeSecondsOfTheScreensClockWhichThenAsksForARedraw() throws {
        // Given a screen's message line on a clock the test drives
        let clock = ManualClock()
        let redraws = Redraws()
        let message = MessageLine(clock: clock, expired: { redraws.add() })
        let status = try Screen.status()
        func shown() -> [String] {
            PlayerScreenLayout(status: status, message: message.text).lines(size: ScreenSize(columns: 80, rows: 24), style: Screen.monochrome)
        }
        // When a key's confirmation is shown
        message.show("2:47 / 4:40 (59%) · chapter 4/5: Four")
        #expect(shown().contains("2:47 / 4:40 (59%) · chapter 4/5: Four"))
        // Then it is still there at 2.9 s, with no redraw asked
        clock.advance(by: .milliseconds(2900))
        #expect(shown().contains("2:47 / 4:40 (59%) · chapter 4/5: Four"))
        #expect(redraws.count == 0)
        // and at 3 s it is gone and a redraw is asked for, once
        clock.advance(by: .milliseconds(100))
        #expect(!shown().contains { $0.contains("2:47 / 4:40") })
        #expect(redraws.count == 1)
        // and a message replacing another has its own three seconds
        message.show("first")
        clock.advance(by: .seconds(2))
        message.show("second")
        clock.advance(by: .seconds(2))
        #expect(message.text == "second" && redraws.count == 1)
        clock.advance(by: .seconds(1))
        #expect(message.text == nil && redraws.count == 2)
        // and a cleared message asks for nothing
        message.show("third")
        message.clear()
        clock.advance(by: .seconds(5))
        #expect(message.text == nil && redraws.count == 2)
    }
}

/// How many redraws a message line asked for (its alarm rings on the clock's thread).
private final class Redraws: Sendable {
    private let counted = Mutex(0)
    func add() { counted.withLock { $0 += 1 } }
    var count: Int { counted.withLock { $0 } }
}
