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
