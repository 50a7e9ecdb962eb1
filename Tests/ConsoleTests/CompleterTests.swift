@testable import Console
import Library
import PlayerCore
import Testing

/// Completion against a real (in-memory) library: shelves "Synthetic 0|1/Shelf 0|1", books
/// "Book 0..3", one renamed "Ender's Game".
@Suite struct CompleterTests {
    let library: LibraryDatabase
    let location = ShelfLocation()
    let completer: Completer

    init() throws {
        library = try LibraryDatabase()
        try library.insertSyntheticBooks(books: 4, itemsPerBook: 2, shelfFanout: 2)
        try library.renameBook(try library.book(matching: "Book 3").id!, to: "Ender's Game")
        completer = Completer(library: library, location: location, outputNames: ["pulse", "null", "wav:"])
    }

    @Test func commandNames() {
        #expect(completer.complete("pl") == Completion(start: 0, replacement: "play ", candidates: ["play"]))
        #expect(completer.complete("book")?.candidates == ["bookmark", "bookmarks"])
        #expect(completer.complete("book")?.replacement == "bookmark") // their common start, no space
        #expect(completer.complete("status; se")?.replacement == "seek ")
        #expect(completer.complete("help ch")?.replacement == "chapter ")
        #expect(completer.complete("zz") == nil)
    }

    @Test func aBookNameWithAnApostropheComesBackQuoted() throws {
        let completion = try #require(completer.complete("play End"))
        #expect(completion == Completion(start: 5, replacement: #""Ender's Game" "#, candidates: ["Ender's Game"]))
        // Already inside a quote, or typed in any case
        #expect(completer.complete(#"play "ender"#)?.replacement == #""Ender's Game" "#)
        // What completion writes, the tokenizer reads back as the title
        #expect(try Tokenizer.commands(in: "play " + completion.replacement!) == [["play", "Ender's Game"]])
    }

    @Test func severalBooksCompleteToTheirCommonStart() {
        let completion = completer.complete("play Bo")
        #expect(completion?.candidates == ["Book 0", "Book 1", "Book 2"])
        #expect(completion?.replacement == #""Book "#)
    }

    @Test func shelvesCompleteRelativeToTheCurrentShelfAndInsidePaths() {
        #expect(completer.complete("cd Syn")?.candidates == ["Synthetic 0", "Synthetic 1"])
        #expect(completer.complete("cd Syn")?.replacement == #""Synthetic "#)
        #expect(completer.complete(#"cd "Synthetic 1/Shelf 1"#)?.replacement == #""Synthetic 1/Shelf 1" "#)
        location.current = "Synthetic 0"
        #expect(completer.complete("cd Sh")?.candidates == ["Shelf 0", "Shelf 1"])
        #expect(completer.complete("cd /Synthetic 1/")?.candidates == nil) // an unquoted space ends the word
    }

    @Test func keywordsAndOutputs() {
        #expect(completer.complete("output nu")?.replacement == "null ")
        #expect(completer.complete("chapter n")?.replacement == "next ")
        #expect(completer.complete("status --")?.replacement == "--json ")
        #expect(completer.complete("seek 1") == nil)
    }
}

@Suite struct BookTimelineTests {
    /// Two synthetic items of 600 s each at 44.1 kHz.
    func timeline() throws -> BookTimeline {
        let library = try LibraryDatabase()
        try library.insertSyntheticBooks(books: 1, itemsPerBook: 2, shelfFanout: 1)
        return BookTimeline(media: try library.items(ofBook: try library.book(matching: "Book 0").id!))
    }

    @Test func bookSecondsMapToItemsAndBack() throws {
        let timeline = try timeline()
        #expect(timeline.totalSeconds == 1200)
        #expect(timeline.position(atBookSeconds: 0) == PlaybackPosition(item: 0, frame: 0))
        #expect(timeline.position(atBookSeconds: 599.5) == PlaybackPosition(item: 0, frame: 26_437_950))
        #expect(timeline.position(atBookSeconds: 600) == PlaybackPosition(item: 1, frame: 0))
        #expect(timeline.position(atBookSeconds: 1000) == PlaybackPosition(item: 1, frame: 400 * 44100))
        #expect(timeline.position(atBookSeconds: -5) == PlaybackPosition(item: 0, frame: 0))
        #expect(timeline.position(atBookSeconds: 1200.5) == nil)
        #expect(timeline.bookSeconds(PlaybackPosition(item: 1, frame: 44100 * 30)) == 630)
        #expect(timeline.chapters.isEmpty)
        #expect(timeline.chapterIndex(at: PlaybackPosition(item: 1, frame: 0)) == nil)
    }

    @Test func chaptersAcrossItemsAreNumberedThroughTheBook() throws {
        var timeline = try timeline()
        timeline.items[0].chapters = [ChapterMark(startFrame: 0, title: "One"), ChapterMark(startFrame: 44100 * 300, title: "Two")]
        timeline.items[1].chapters = [ChapterMark(startFrame: 44100 * 10, title: "Three")]
        #expect(timeline.chapters.map(\.title) == ["One", "Two", "Three"])
        #expect(timeline.chapterIndex(at: PlaybackPosition(item: 0, frame: 44100 * 299)) == 0)
        #expect(timeline.chapterIndex(at: PlaybackPosition(item: 1, frame: 0)) == 1)
        #expect(timeline.chapterIndex(at: PlaybackPosition(item: 1, frame: 44100 * 10)) == 2)
    }
}
