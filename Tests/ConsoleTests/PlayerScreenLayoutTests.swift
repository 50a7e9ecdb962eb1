import Library
import Player
@testable import Console
import Foundation
import Testing

@Suite struct PlayerScreenLayoutTests {
    static func status(state: String = "paused", title: String = "The Brothers Karamazov", author: String? = nil,
                       sleep: SleepState? = nil) throws -> Status {
        let json = """
            {"book": "\(title)", "bookId": 1, "item": "Part Two: The Grand Inquisitor and a very long item title",
             "itemNumber": 2, "itemCount": 12, "chapter": "Rebellion", "chapterNumber": 5, "chapterCount": 40,
             "chapterStart": 60, "chapterDuration": 300, "chapterIsWholeItem": false,
             "itemPosition": 150, "itemDuration": 600, "bookPosition": 750, "bookDuration": 3000,
             "timeLeft": 1500, "speed": 1.5, "volume": 80, "output": "pulse", "state": "\(state)",
             "repeatMode": "off", "shuffle": false, "queue": 0}
            """
        var status = try JSONDecoder().decode(Status.self, from: Data(json.utf8))
        status.sleep = sleep
        status.author = author
        return status
    }

    static let color = ScreenStyle(mode: .color, coverColors: .truecolor)
    static let monochrome = ScreenStyle(mode: .monochrome, coverColors: .none)

    /// The text of a line as seen on the terminal: without SGR sequences.
    static func visible(_ line: String) -> String {
        line.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    @Test func theSettingsLineShowsTheLoudnessGainBesideTheVolume() throws {
        // Given a book evened out by +4.5 dB, another still being measured, a third with loudness off
        for (loudness, expected) in [("gain +4.5 dB", "volume 80%  gain +4.5 dB  output pulse"),
                                     ("loudness measuring", "volume 80%  loudness measuring  output pulse"),
                                     ("loudness off", "volume 80%  output pulse")] {
            var status = try Self.status()
            status.loudness = loudness
            // When the player screen is drawn
            let text = PlayerScreenLayout(status: status, message: nil).lines(size: ScreenSize(columns: 80, rows: 24), style: Self.monochrome)
                .map(Self.visible).joined(separator: "\n")
            // Then the settings line says it between the volume and the output (nothing when off)
            #expect(text.contains("speed 1.5x  " + expected), "\(text)")
        }
    }

    @Test func theScreenShowsEveryFieldWithBarsForItemAndBook() throws {
        // Given a paused book a quarter through, on an 80x24 screen
        let layout = PlayerScreenLayout(status: try Self.status(sleep: .counting(secondsLeft: 9 * 60 + 41)), message: "bookmarked 12:30")
        let lines = layout.lines(size: ScreenSize(columns: 80, rows: 24), style: Self.color).map(Self.visible)
        let text = lines.joined(separator: "\n")

        // Then state, book, item n/N, chapter i/N, times, speed, volume, output, sleep and message show
        #expect(lines[0].contains("PAUSED"))
        for expected in ["The Brothers Karamazov", "item 2/12: Part Two", "chapter 5/40: Rebellion",
                         "chapter 1:30 / 5:00", "item 2:30 / 10:00", "book 12:30 / 50:00",
                         "2:20 left in chapter, 25:00 in book at 1.5x",
                         "speed 1.5x  volume 80%  output pulse", "sleep 9:41 left", "bookmarked 12:30"] {
            #expect(text.contains(expected), "\(expected) in\n\(text)")
        }
        // and the item bar is a quarter full, the book bar a quarter full too
        let itemBar = try #require(lines.first { $0.hasSuffix("item 2:30 / 10:00") })
        let filled = itemBar.filter { $0 == "█" }.count
        let empty = itemBar.filter { $0 == "░" }.count
        #expect(filled + empty == 80 - " item 2:30 / 10:00".count - 2)
        #expect(abs(Double(filled) / Double(filled + empty) - 0.25) < 0.03, "\(itemBar)")
        // and the chapter has a bar of its own, 90 s of its 300 s full
        let chapterBar = try #require(lines.first { $0.hasSuffix("chapter 1:30 / 5:00") })
        let chapterFilled = chapterBar.filter { $0 == "█" }.count
        let chapterEmpty = chapterBar.filter { $0 == "░" }.count
        #expect(abs(Double(chapterFilled) / Double(chapterFilled + chapterEmpty) - 0.3) < 0.03, "\(chapterBar)")
        // and nothing is wider than the screen
        #expect(lines.allSatisfy { $0.count <= 80 })
    }

    @Test func aFileStandingAsAChapterIsShownAsTheItemOnce() throws {
        // Given a book of many files without chapter marks: item 2 is chapter 2
        var status = try Self.status()
        (status.chapter, status.chapterNumber, status.chapterCount) = (status.item, 2, 12)
        (status.chapterStart, status.chapterDuration, status.chapterIsWholeItem) = (0, 600, true)
        let lines = PlayerScreenLayout(status: status).lines(size: ScreenSize(columns: 80, rows: 24), style: Self.color).map(Self.visible)
        // Then no second line and bar repeat the item as a chapter, and the time left is the item's
        #expect(!lines.contains { $0.contains("chapter 2/12") || $0.contains("] chapter") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("item 2/12: Part Two") })
        #expect(lines.contains("5:00 left in item, 25:00 in book at 1.5x"), "\(lines)")
    }

    @Test func aLongMessageTakesTwoLinesBrokenBetweenWords() throws {
        // Given the line a bookmark jump answers with, longer than 80 columns
        let message = "at bookmark 6 (Don't forget; really): 0:01 / 0:05 (32%) · chapter 1/2: One, 0:01 / 0:02; 'undo' goes back"
        let lines = PlayerScreenLayout(status: try Self.status(), message: message).messageLines(width: 80)
        // Then it is two lines of at most 80 cells holding all of it, split at a space
        #expect(lines.count == 2 && lines.allSatisfy { TextFit.cells($0) <= 80 }, "\(lines)")
        #expect(lines.joined(separator: " ") == message)
        // and a message too long for two lines ends in an ellipsis
        let long = PlayerScreenLayout(status: try Self.status(), message: String(repeating: "word ", count: 60)).messageLines(width: 40)
        #expect(long.count == 2 && long[1].hasSuffix("…") && long.allSatisfy { TextFit.cells($0) <= 40 })
    }

    @Test func playingAndPausedLookDifferentAndColoured() throws {
        let playing = PlayerScreenLayout(status: try Self.status(state: "playing")).lines(size: ScreenSize(columns: 80, rows: 24), style: Self.color)
        let paused = PlayerScreenLayout(status: try Self.status(state: "paused")).lines(size: ScreenSize(columns: 80, rows: 24), style: Self.color)
        #expect(playing[0].contains("PLAYING") && playing[0].contains("\u{1B}[1;7;32m"))
        #expect(paused[0].contains("PAUSED") && paused[0].contains("\u{1B}[1;7;33m"))
    }

    @Test func fortyColumnsTruncateAndNeverWrap() throws {
        // Given a long title on a 40x12 screen, and on a 40x30 one
        let layout = PlayerScreenLayout(status: try Self.status(title: String(repeating: "Long Title ", count: 10)))
        let lines = layout.lines(size: ScreenSize(columns: 40, rows: 12), style: Self.color).map(Self.visible)
        // Then every line fits in 40 cells, titles end with an ellipsis, and at most 12 lines
        #expect(lines.allSatisfy { $0.count <= 40 }, "\(lines)")
        #expect(lines.count <= 12)
        #expect(lines.contains { $0.hasPrefix("Long Title") && $0.hasSuffix("…") })
        #expect(lines.contains { $0.hasPrefix("item 2/12: Part Two") && $0.hasSuffix("…") && $0.count == 40 })
        // and where the five lines of keys fit, they take the last lines, whole keys, down to `q back`
        let tall = layout.lines(size: ScreenSize(columns: 40, rows: 30), style: Self.color).map(Self.visible)
        #expect(tall.last?.hasSuffix("q back") == true, "\(tall)")
        #expect(tall.contains { $0.hasPrefix("space play/pause") })
    }

    @Test func everyKeyIsShownAtEveryWidthTheLastOneIncluded() throws {
        for columns in [40, 80, 100, 120, 200] {
            let lines = PlayerScreenLayout.keyHelp(columns: columns)
            #expect(lines.allSatisfy { TextFit.cells($0) <= columns }, "\(columns): \(lines)")
            #expect(lines.joined(separator: "  ") == PlayerScreenLayout.keys.joined(separator: "  "), "\(columns): \(lines)")
        }
        #expect(PlayerScreenLayout.keyHelp(columns: 200).count == 1)
        #expect(PlayerScreenLayout.keyHelp(columns: 120).count == 2)
    }

    @Test func noColorHasNoEscapeByteAtAll() throws {
        let lines = PlayerScreenLayout(status: try Self.status(state: "playing"), message: "hello")
            .lines(size: ScreenSize(columns: 60, rows: 30), style: Self.monochrome)
        #expect(!lines.joined().contains("\u{1B}"))
        #expect(lines[0].contains("PLAYING"))
    }

    @Test func theDumbModeIsOnePlainLine() throws {
        let line = PlayerScreenLayout(status: try Self.status(sleep: .counting(secondsLeft: 5 * 60))).plainLine
        #expect(!line.contains("\u{1B}") && !line.contains("\n") && !line.contains("█"))
        #expect(line == "The Brothers Karamazov — paused  item 2/12 2:30/10:00  chapter 5/40: Rebellion  book 12:30/50:00  speed 1.5x volume 80%  sleep 5:00 left")
    }

    @Test func theEnvironmentChoosesTheStyle() {
        #expect(ScreenStyle(environment: ["TERM": "xterm"], isTerminal: true).mode == .color)
        #expect(ScreenStyle(environment: ["TERM": "xterm", "NO_COLOR": "1"], isTerminal: true).mode == .monochrome)
        #expect(ScreenStyle(environment: ["TERM": "xterm", "NO_COLOR": ""], isTerminal: true).mode == .color)
        #expect(ScreenStyle(environment: ["TERM": "dumb"], isTerminal: true).mode == .plain)
        #expect(ScreenStyle(environment: ["TERM": "xterm"], isTerminal: false).mode == .plain)
        #expect(CoverArt.Colors(environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor"]) == .truecolor)
        #expect(CoverArt.Colors(environment: ["TERM": "xterm-256color"]) == .indexed256)
        #expect(CoverArt.Colors(environment: ["TERM": "xterm"]) == .indexed16)
        #expect(CoverArt.Colors(environment: ["TERM": "xterm", "COLORTERM": "truecolor", "NO_COLOR": "1"]) == .none)
    }

    @Test func aBookWithoutCoverGetsAFramedTitleCard() {
        let card = Gallery.titleCard("Dune", author: "Frank Herbert", width: 20, height: 7)
        #expect(card.count == 7)
        #expect(card.allSatisfy { $0.count == 20 })
        #expect(card.first == "┌" + String(repeating: "─", count: 18) + "┐")
        #expect(card.contains { $0.contains("Dune") } && card.contains { $0.contains("Frank Herbert") })
    }
}

@Suite struct TextFitTests {
    @Test func wideCharactersTakeTwoCellsAndAreCutByCells() {
        // Given the UTF-8 character type the REPL sets at start
        setlocale(LC_CTYPE, "C.UTF-8")
        // Then CJK takes two cells, a combining mark none, ASCII one
        #expect(TextFit.cells("日本") == 4)
        #expect(TextFit.cells("e\u{301}") == 1)
        #expect(TextFit.cells("abc") == 3)
        // and a wide title cut to 9 cells keeps 4 characters and the ellipsis, never 10 cells
        let cut = TextFit.truncate("吾輩は猫である。名前はまだ無い", to: 9)
        #expect(cut == "吾輩は猫…")
        #expect(TextFit.cells(cut) <= 9)
    }
}

@Suite struct BookmarkPickerTests {
    @Test func theBookmarkListNumbersItsPlacesAndKeepsTheChosenOneInSight() throws {
        // Given a book with twelve bookmarks, the list on a 60x8 screen with the 10th chosen
        let places = (1...12).map { (number: Int) -> BookmarkPlace in
            let note: String? = number == 10 ? "the duel" : nil
            return BookmarkPlace(number: .user(number), id: Int64(number * 3), kind: BookmarkKind.user, seconds: Double(number * 60) + 0.9,
                                 item: 0, itemCount: 1, note: note)
        }
        var picker = BookmarkPicker(book: "Red Book", places: places)
        picker.move(by: 9)
        let lines = picker.lines(size: ScreenSize(columns: 60, rows: 8), style: PlayerScreenLayoutTests.color).map(PlayerScreenLayoutTests.visible)

        // Then the title, six numbered lines ending with the chosen one (marked), and the keys fit
        #expect(lines.count == 8 && lines.allSatisfy { $0.count <= 60 }, "\(lines)")
        #expect(lines.first == "Bookmarks — Red Book")
        // (numbered as `bookmarks` numbers them, never by the library's ids)
        #expect(lines[6] == "> 10  10:00  the duel", "\(lines)")
        #expect(lines[1] == "  5  5:00")
        #expect(lines.last == "↑/↓ move  Enter or 1-9 go there  q back")
        // and a number key picks the place the list numbers so; past the list, none
        #expect(picker.place(forDigit: "2")?.id == 6)
        #expect(picker.place(forDigit: "0") == nil)
        // and moving stops at the ends
        picker.move(by: 50)
        #expect(picker.current.id == 36)
    }
}
