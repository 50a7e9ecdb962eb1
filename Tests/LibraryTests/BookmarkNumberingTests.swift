import Foundation
import GRDB
import Library
import Testing
import TestSupport

/// How a book's bookmarks are numbered (`BookmarkStore.numbered`): by place in the book, ties by
/// what every computer that synced them agrees on, automatic ones counted apart.
@Suite struct BookmarkNumberingTests {
    @Test func bookmarksAreNumberedByPlaceThenCreationThenSyncIdWithTheAutomaticOnesApart() throws {
        // Given a book of two items, and bookmarks made out of place order: in item 2, then in
        // item 1 late, an automatic one between, two at one place and moment told apart only by
        // their sync ids (the later id made first), and one in a file no longer in the book
        let library = try LibraryDatabase()
        try library.books.insertSyntheticBooks(books: 1, itemsPerBook: 2, shelfFanout: 1)
        let book = try library.books.book(matching: "Book 0").id!
        let media = try library.books.items(ofBook: book).map { $0.id! }
        let moment = Date(timeIntervalSince1970: 1_800_000_000)
        let inTwo = try library.bookmarks.add(bookId: book, mediaId: media[1], frame: 100, kind: .user, at: moment)
        let lateInOne = try library.bookmarks.add(bookId: book, mediaId: media[0], frame: 9000, kind: .user, at: moment)
        let automatic = try library.bookmarks.add(bookId: book, mediaId: media[0], frame: 5000, kind: .beforeSeek, at: moment)
        let tiedB = try library.bookmarks.add(bookId: book, mediaId: media[0], frame: 700, kind: .user, at: moment)
        let tiedA = try library.bookmarks.add(bookId: book, mediaId: media[0], frame: 700, kind: .user, at: moment)
        let earlier = try library.bookmarks.add(bookId: book, mediaId: media[0], frame: 700, kind: .user, at: moment.addingTimeInterval(-1))
        try library.writer.write { db in
            try db.execute(sql: "UPDATE bookmark SET syncId = ? WHERE id = ?", arguments: ["B-sync", tiedB.id!])
            try db.execute(sql: "UPDATE bookmark SET syncId = ? WHERE id = ?", arguments: ["A-sync", tiedA.id!])
        }
        // (a file that left the book: in the library still, no longer one of its items)
        let elsewhere = try library.writer.write { db in
            try db.execute(sql: "INSERT INTO media (path, size, fingerprint, sampleRate, durationFrames) VALUES ('/gone.mp3', 1, '1:02', 44100, 441000)")
            return db.lastInsertedRowID
        }
        let orphan = try library.bookmarks.add(bookId: book, mediaId: elsewhere, frame: 0, kind: .user, at: moment.addingTimeInterval(-100))

        // When they are numbered
        let numbered = try library.bookmarks.numbered(ofBook: book)

        // Then the order is by item and frame, then creation, then sync id; the orphan last; the
        // automatic one a1 among them without taking a plain number
        #expect(numbered.map(\.bookmark.id) == [earlier.id, tiedA.id, tiedB.id, automatic.id, lateInOne.id, inTwo.id, orphan.id])
        #expect(numbered.map(\.number.description) == ["1", "2", "3", "a1", "4", "5", "6"])
        // and a number finds its bookmark; one past the list finds none
        #expect(try library.bookmarks.bookmark(.user(4), ofBook: book)?.bookmark.id == lateInOne.id)
        #expect(try library.bookmarks.bookmark(.automatic(1), ofBook: book)?.bookmark.id == automatic.id)
        #expect(try library.bookmarks.bookmark(.user(7), ofBook: book) == nil)
    }

    @Test func aNumberIsWrittenAsTheListsWriteIt() throws {
        #expect(BookmarkNumber("3") == .user(3) && BookmarkNumber("a12") == .automatic(12))
        for text in ["0", "a0", "#3", "+3", "-1", "a", "", "3a", "A3", "٣"] { #expect(BookmarkNumber(text) == nil, "\(text)") }
        #expect(BookmarkNumber.automatic(2).description == "a2" && BookmarkNumber.user(2).description == "2")
        // and in JSON it is the same text
        let encoded = try JSONEncoder().encode([BookmarkNumber.user(1), .automatic(3)])
        #expect(String(decoding: encoded, as: UTF8.self) == #"["1","a3"]"#)
        #expect(try JSONDecoder().decode([BookmarkNumber].self, from: encoded) == [.user(1), .automatic(3)])
    }
}
