import Foundation
import GRDB
@testable import Library
import Testing

/// The library writes dates by hand (no ICU); what it writes must be what GRDB writes, so dates
/// stored before and after compare and sort the same.
@Suite struct StoredDateTests {
    @Test(arguments: [0.0, 0.001, 59.999, 951_782_400.5, 1_700_000_000.123, 1_764_000_000.9999, 4_102_444_799.999])
    func theTextIsGRDBsOwn(secondsSince1970: Double) {
        let date = Date(timeIntervalSince1970: secondsSince1970)
        #expect(StoredDate.text(date) == String.fromDatabaseValue(date.databaseValue))
        // Read as GRDB reads it (to the microsecond: the two add the milliseconds differently).
        let read = StoredDate.date(fromText: StoredDate.text(date))
        let grdbRead = Date.fromDatabaseValue(date.databaseValue)
        #expect(read.flatMap { read in grdbRead.map { abs(read.timeIntervalSince($0)) < 1e-6 } } == true)
    }

    @Test(arguments: ["", "2025-11-24", "2025-11-24T16:00:00", "2025-11-24 16:00:00.25", "2025-1x-24 16:00:00", "12345"])
    func otherTextIsLeftToGRDB(text: String) {
        #expect(StoredDate.date(fromText: text) == nil)
    }

    @Test func aSavedPositionReadsBackAsTheSameMillisecond() throws {
        let library = try LibraryDatabase()
        let book = try library.books.createBook(title: "Dates")
        let when = Date(timeIntervalSince1970: 1_764_000_000.25)
        var media = Media(id: nil, path: "/dates/1.mp3", size: 1, fingerprint: "1:1", isMissing: false, title: nil, artist: nil,
                          album: nil, trackNumber: nil, sampleRate: 44100, durationFrames: 44100, chapters: "[]", hasCover: false)
        try library.writer.write { db in try media.insert(db) }
        try library.books.addItems(toBook: book, mediaIds: [media.id!])
        try library.positions.savePosition(bookId: book, mediaId: media.id!, frame: 10, at: when)
        let stored = try #require(try library.positions.ofBook(book))
        #expect(stored.updatedAt == when)
        let text = try library.writer.read { db in try String.fetchOne(db, sql: "SELECT updatedAt FROM position") }
        #expect(text == "2025-11-24 16:00:00.250")
    }

    @Test func datesNoAbplayerWritesNowStillReadAndTheLibraryStaysUsable() throws {
        // Given a finished book whose dates were stored out of range (as a sync journal once
        // carried them: year 31690708, year -2) and a bookmark whose date is no date at all
        let library = try LibraryDatabase()
        let book = try library.books.createBook(title: "Dates")
        var media = Media(id: nil, path: "/dates/1.mp3", size: 1, fingerprint: "1:1", isMissing: false, title: nil, artist: nil,
                          album: nil, trackNumber: nil, sampleRate: 44100, durationFrames: 44100, chapters: "[]", hasCover: false)
        try library.writer.write { db in try media.insert(db) }
        try library.books.addItems(toBook: book, mediaIds: [media.id!])
        try library.bookmarks.add(bookId: book, mediaId: media.id!, frame: 10, kind: .user, note: "here")
        try library.writer.write { db in
            try db.execute(sql: "UPDATE book SET finishedAt = '31690708-07-05 01:46:40.000', finishedChangedAt = '-2-01-01 00:00:00.000'")
            try db.execute(sql: "UPDATE bookmark SET createdAt = 'garbage'")
        }

        // When the library is read as the listings read it
        let listings = try library.catalog.bookListings()
        let finished = try library.books.book(matching: "Dates").finishedAt
        let bookmarks = try library.bookmarks.all(ofBook: book)

        // Then the book is listed, finished at the last day of year 9999, and the bookmark dated 1970
        #expect(listings.map(\.title) == ["Dates"])
        #expect(finished.map(StoredDate.text) == "9999-07-05 01:46:40.000")
        #expect(bookmarks.map(\.createdAt) == [Date(timeIntervalSince1970: 0)])
    }

    /// (Seconds, not dates, as arguments: Foundation's own `Date.description` traps on these.)
    @Test(arguments: [1e15, -1e15, .nan])
    func aDateBeyondTheFormIsWrittenAtItsEndAndReadsBack(secondsSince1970: Double) {
        let text = StoredDate.text(Date(timeIntervalSince1970: secondsSince1970))
        #expect(text.count == 23 && StoredDate.date(fromText: text) != nil, "\(text)")
    }

    /// Through GRDB's generic path, as an insert asks it.
    @Test func everyRecordWithDatesWritesAndReadsThemByHand() {
        func writesByHand<R: EncodableRecord & FetchableRecord>(_ type: R.Type) -> Bool {
            guard case .custom = R.databaseDateEncodingStrategy(for: "any") else { return false }
            guard case .custom = R.databaseDateDecodingStrategy(for: "any") else { return false }
            return true
        }
        #expect(writesByHand(Shelf.self))
        #expect(writesByHand(Book.self))
        #expect(writesByHand(Position.self))
        #expect(writesByHand(Bookmark.self))
        #expect(writesByHand(ListeningSession.self))
    }
}
