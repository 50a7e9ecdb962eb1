import Foundation
import GRDB
import Library
import TestSupport
import Testing

@Suite struct QueueTests {
    /// A file library with four synthetic books; their ids in title order.
    func library(_ name: String) throws -> (LibraryDatabase, String, [Int64]) {
        let path = try BuildProducts.temporaryDirectory(name).appending(path: "library.sqlite").path
        let library = try LibraryDatabase(path: path)
        try library.books.insertSyntheticBooks(books: 4, itemsPerBook: 2)
        let ids = try library.catalog.bookListings().map(\.id)
        return (library, path, ids)
    }

    @Test func queuedBooksAreReorderedRemovedAndSurviveReopening() throws {
        // Given four books, all queued in order
        let (library, path, ids) = try library("queue-order")
        for id in ids { #expect(try library.queue.enqueue(bookId: id)) }
        // a book is queued once
        #expect(try !library.queue.enqueue(bookId: ids[0]))

        // When the last moves first, the third is removed
        try library.queue.move(from: 3, to: 0)
        #expect(try library.queue.remove(at: 2) == ids[1])

        // Then the order is kept in the file, read back by another connection
        let reopened = try LibraryDatabase(path: path)
        #expect(try reopened.queue.books().map(\.id) == [ids[3], ids[0], ids[2]])
        // and the positions are 0, 1, 2 again
        let positions = try reopened.writer.read { db in try Int.fetchAll(db, sql: "SELECT position FROM queueEntry ORDER BY position") }
        #expect(positions == [0, 1, 2])
        // and dequeue takes the first
        #expect(try reopened.queue.dequeue()?.id == ids[3])
        #expect(try reopened.queue.books().map(\.id) == [ids[0], ids[2]])
    }

    @Test func badPlacesAreRefusedAndAClearedQueueIsEmpty() throws {
        let (library, _, ids) = try library("queue-bad")
        try library.queue.enqueue(bookId: ids[0])
        #expect(throws: QueueIndexError.self) { try library.queue.move(from: 0, to: 5) }
        #expect(throws: QueueIndexError.self) { try library.queue.remove(at: 1) }
        try library.queue.clear()
        #expect(try library.queue.books().isEmpty)
        #expect(try library.queue.dequeue() == nil)
    }

    @Test func aDeletedBookLeavesTheQueue() throws {
        let (library, _, ids) = try library("queue-delete")
        try library.queue.enqueue(bookId: ids[1])
        try library.writer.write { db in _ = try db.execute(sql: "DELETE FROM book WHERE id = ?", arguments: [ids[1]]) }
        #expect(try library.queue.books().isEmpty)
    }

    @Test func repeatModeAndRewindPreferencesAreStored() throws {
        // Given a book's settings with repeat book, and the rewind off with a most of 20 s
        let (library, path, ids) = try library("queue-prefs")
        var settings = try library.settings.ofBook(ids[0])
        #expect(settings.repeatMode == .off)
        settings.repeatMode = .book
        try library.settings.save(settings)
        var preferences = try library.settings.playerPreferences()
        #expect(preferences.autoRewind && preferences.autoRewindMaxSeconds == 30)
        preferences.autoRewind = false
        preferences.autoRewindMaxSeconds = 20
        try library.settings.savePlayerPreferences(preferences)

        // Then another connection reads them back
        let reopened = try LibraryDatabase(path: path)
        #expect(try reopened.settings.ofBook(ids[0]).repeatMode == .book)
        #expect(try reopened.settings.playerPreferences() == preferences)
        // and the database refuses a mode it does not know
        #expect(throws: DatabaseError.self) {
            try reopened.writer.write { db in try db.execute(sql: "UPDATE bookSettings SET repeatMode = 'twice'") }
        }
    }
}
