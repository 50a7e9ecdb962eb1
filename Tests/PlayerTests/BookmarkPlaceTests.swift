import Foundation
import Library
@testable import Player
import PlayerCore
import Testing

/// Where a bookmark is said to be: its time in the book (one rounding rule) and its chapter.
@Suite struct BookmarkPlaceTests {
    @Test func aBookmarkIsPlacedInItsChapterAtItsBookTimeTruncatedLikeTheClock() throws {
        // Given a book of two 600 s items with three chapters, and bookmarks in them
        let library = try LibraryDatabase()
        try library.books.insertSyntheticBooks(books: 1, itemsPerBook: 2, shelfFanout: 1)
        let book = try library.books.book(matching: "Book 0").id!
        let media = try library.books.items(ofBook: book)
        var timeline = BookTimeline(media: media)
        timeline.items[0].chapters = [ChapterMark(startFrame: 0, title: "One"), ChapterMark(startFrame: 44100 * 300, title: "Two")]
        timeline.items[1].chapters = [ChapterMark(startFrame: 44100 * 10, title: "Three")]
        let inTwo = try library.bookmarks.add(bookId: book, mediaId: media[0].id!, frame: 44100 * 3723 / 10, kind: .user, note: "n")
        let beforeThree = try library.bookmarks.add(bookId: book, mediaId: media[1].id!, frame: 44100 * 5 + 44099, kind: .beforeSeek)

        // When they are placed
        let numbered = [NumberedBookmark(number: .user(1), bookmark: inTwo), NumberedBookmark(number: .automatic(1), bookmark: beforeThree)]
        let places = BookmarkPlace.places(numbered, all: true, timeline: timeline, mediaIds: media.map { $0.id! })

        // Then each has its book time as whole seconds heard (372.3 s is 6:12; 605.99 s is 10:05,
        // not 10:06), its chapter through the book, and its kind
        #expect(places.map(\.time) == ["6:12", "10:05"])
        #expect(places.map(\.placeInBook) == ["chapter 2: Two", "chapter 2: Two"])
        #expect(places[0].line == "1  6:12  chapter 2: Two  n")
        #expect(places[1].line == "a1  10:05  chapter 2: Two  before a seek")
        // and without `all`, the automatic one is not listed
        #expect(BookmarkPlace.places(numbered, all: false, timeline: timeline, mediaIds: media.map { $0.id! }).map(\.number) == [.user(1)])
        // and a bookmark whose file left the book still lists, its place unknown
        let orphan = BookmarkPlace.places([numbered[0]], all: false, timeline: timeline, mediaIds: [media[1].id!])[0]
        #expect(orphan.time == "--:--" && orphan.placeInBook == "item ?")
    }
}
