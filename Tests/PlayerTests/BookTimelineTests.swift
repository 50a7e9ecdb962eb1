import Library
@testable import Player
import PlayerCore
import Testing

@Suite struct BookTimelineTests {
    /// Two synthetic items of 600 s each at 44.1 kHz.
    func timeline() throws -> BookTimeline {
        let library = try LibraryDatabase()
        try library.books.insertSyntheticBooks(books: 1, itemsPerBook: 2, shelfFanout: 1)
        return BookTimeline(media: try library.books.items(ofBook: try library.books.book(matching: "Book 0").id!))
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

    @Test func aBookTimePastAFileBoundaryNamesItsFrameDespiteTheSecondsSubtracted() throws {
        // Given files of 178,082 and 219,836 frames at 48 kHz (3.71004... s, not a whole
        // number of anything), then a third
        var timeline = try timeline()
        timeline.items = [178_082, 219_836, 178_082].enumerated().map { index, frames in
            BookTimeline.Item(title: "\(index)", path: "/\(index).opus", sampleRate: 48000, frames: frames, chapters: [])
        }
        // Then 3.75 s into the book is frame 1918 of the second (3.75 s less the first file's
        // length in seconds is 1917.99999... frames), and each boundary is the next file's top
        #expect(timeline.position(atBookSeconds: 3.75) == PlaybackPosition(item: 1, frame: 180_000 - 178_082))
        #expect(timeline.position(atBookSeconds: 9) == PlaybackPosition(item: 2, frame: 432_000 - 397_918))
        #expect(timeline.position(atBookSeconds: 178_082.0 / 48000) == PlaybackPosition(item: 1, frame: 0))
        #expect(timeline.position(atBookSeconds: 397_918.0 / 48000) == PlaybackPosition(item: 2, frame: 0))
        #expect(timeline.position(atBookSeconds: 12) == PlaybackPosition(item: 2, frame: 178_082))
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
