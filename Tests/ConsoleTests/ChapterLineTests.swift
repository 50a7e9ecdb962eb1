@testable import Console
import Foundation
import Library
import PlayerCore
import Testing

/// `chapter add/rename/rm` and `chapters reset/detect` as typed, and their completion.
@Suite struct ChapterLineTests {
    @Test func editsParseWithTimesInEveryFormAndTitlesAsTyped() throws {
        #expect(try parse("chapter add The Storm") == .chapterLine(.add(seconds: nil, title: "The Storm")))
        #expect(try parse("chapter add 90 The Storm") == .chapterLine(.add(seconds: 90, title: "The Storm")))
        #expect(try parse("chapter add 1:30 Storm") == .chapterLine(.add(seconds: 90, title: "Storm")))
        #expect(try parse("chapter add 1:02:03.250 Storm") == .chapterLine(.add(seconds: 3723.25, title: "Storm")))
        // a title that starts with a time is written after --; one word alone is a title
        #expect(try parse("chapter add -- 1984 Again") == .chapterLine(.add(seconds: nil, title: "1984 Again")))
        #expect(try parse("chapter add 5:00 -- 1984 Again") == .chapterLine(.add(seconds: 300, title: "1984 Again")))
        #expect(try parse("chapter add 1984") == .chapterLine(.add(seconds: nil, title: "1984")))
        #expect(try parse("chapter rename 3 \"A New Hope\"") == .chapterLine(.rename(number: 3, title: "A New Hope")))
        #expect(try parse("chapter rm 2") == .chapterLine(.remove(number: 2)))
        // navigation is as it was
        #expect(try parse("chapter next") == .chapter(.next))
        #expect(try parse("chapter Storm") == .chapter(.named("Storm")))
    }

    @Test func listCommandsParse() throws {
        #expect(try parse("chapters") == .chapters(book: nil))
        #expect(try parse("chapters Dune") == .chapters(book: "Dune"))
        #expect(try parse("chapters reset") == .chapterLine(.reset(book: nil)))
        #expect(try parse("chapters reset Dune") == .chapterLine(.reset(book: "Dune")))
        #expect(try parse("chapters detect") == .chapterLine(.detect(minimumSilence: nil, confirmed: false, book: nil)))
        #expect(try parse("chapters detect 1.5 --yes") == .chapterLine(.detect(minimumSilence: 1.5, confirmed: true, book: nil)))
        #expect(try parse("chapters detect --yes Dune Messiah") == .chapterLine(.detect(minimumSilence: nil, confirmed: true, book: "Dune Messiah")))
    }

    @Test func badEditsAreRefusedInOneLine() throws {
        #expect(try failure("chapter add") == "usage: chapter add [TIME] TITLE (TIME in the book: \(Timecode.forms); none: the place heard now)")
        #expect(try failure("chapter add 1:30 \"  \"") == "chapter add: the title is empty: give the chapter a name")
        #expect(try failure("chapter rm x") == "chapter rm: 'x' is not a chapter number: use N as 'chapters' lists them, from 1")
        #expect(try failure("chapter rm 0") == "chapter rm: '0' is not a chapter number: use N as 'chapters' lists them, from 1")
        #expect(try failure("chapter rename 2") == "usage: chapter rename N TITLE (N as 'chapters' lists them)")
        #expect(try failure("chapters detect 0.1") == "chapters detect: a silence of '0.1' is out of range: use 0.5 s to 10m (default 2 s)")
    }

    @Test func theNewWordsComplete() throws {
        let library = try LibraryDatabase()
        try library.books.insertSyntheticBooks(books: 2, itemsPerBook: 1, shelfFanout: 1)
        let completer = Completer(library: library, location: ShelfLocation(), outputNames: [])
        #expect(completer.complete("chapter re")?.replacement == "rename ")
        #expect(completer.complete("chapter r")?.candidates == ["rename", "rm"])
        #expect(completer.complete("chapters de")?.replacement == "detect ")
        #expect(completer.complete("chapters detect --")?.replacement == "--yes ")
        #expect(completer.complete("chapters reset Bo")?.candidates == ["Book 0", "Book 1"])
        #expect(CommandHelp.named("chapters")?.usage == "chapters [BOOK] | reset [BOOK] | detect [MIN_SILENCE] [--yes] [BOOK]")
    }
}
