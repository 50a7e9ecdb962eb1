import Library
@testable import Player
import PlayerCore
import Testing

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
    }

    @Test func eachFileOfABookWithoutChapterMarksIsAChapterButALoneFileIsNot() throws {
        // Given two files without chapter marks: each is a chapter, from its start to its end
        var files = try timeline()
        #expect(files.chapters.map(\.title) == files.items.map(\.title))
        #expect(files.chapters.allSatisfy { $0.isWholeItem })
        #expect(files.chapterIndex(at: PlaybackPosition(item: 1, frame: 0)) == 1)
        #expect(files.span(ofChapter: 1).start == 600 && files.span(ofChapter: 1).length == 600)
        // When the second file turns out to have chapters of its own (found on opening it), the
        // first stays a chapter and the second's marks replace it
        files.items[1].chapters = [ChapterMark(startFrame: 0, title: "A"), ChapterMark(startFrame: 44100 * 100, title: "B")]
        #expect(files.chapters.map(\.title) == [files.items[0].title, "A", "B"])
        #expect(files.span(ofChapter: 1).length == 100 && files.span(ofChapter: 2).length == 500)
        // And a book of one file without marks has no chapters
        files.items.removeLast()
        #expect(files.chapters.isEmpty)
        #expect(files.chapterIndex(at: PlaybackPosition(item: 0, frame: 0)) == nil)
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
