import Foundation
import GRDB
import Library
import Testing
import TestSupport

/// Bookmarks changed after they were made, and the listener's defaults behind a book's settings,
/// read back from the database file.
@Suite struct BookmarkEditingTests {
    /// A library file with one book of one item (10 s at 44.1 kHz); its id and the item's.
    func libraryWithBook(_ name: String) throws -> (LibraryDatabase, String, Int64, Int64) {
        let path = try BuildProducts.temporaryDirectory(name).appending(path: "library.sqlite").path
        let library = try LibraryDatabase(path: path)
        let (bookId, mediaId) = try library.writer.write { db in
            var book = Book(title: "Notes")
            try book.insert(db)
            try db.execute(sql: """
                INSERT INTO media (path, size, fingerprint, sampleRate, durationFrames) VALUES ('/n/1.mp3', 1, '1:01', 44100, 441000)
                """)
            let mediaId = db.lastInsertedRowID
            try db.execute(sql: "INSERT INTO bookItem (bookId, mediaId, position) VALUES (?, ?, 0)", arguments: [book.id!, mediaId])
            return (book.id!, mediaId)
        }
        return (library, path, bookId, mediaId)
    }

    @Test func aNoteIsReplacedOrRemovedAndABookmarkDeletedAsTheFileSays() throws {
        // Given a bookmark with a note
        let (library, path, bookId, mediaId) = try libraryWithBook("bookmark-note")
        let mark = try library.bookmarks.add(bookId: bookId, mediaId: mediaId, frame: 4410, kind: .user, note: "first")

        // When its note is replaced, then read by another connection to the file
        try library.bookmarks.updateNote(id: mark.id!, note: "Don't forget; the duel")
        let other = try DatabaseQueue(path: path)
        #expect(try other.read { db in try String.fetchOne(db, sql: "SELECT note FROM bookmark WHERE id = ?", arguments: [mark.id!]) }
                == "Don't forget; the duel")
        // an empty note is none
        try library.bookmarks.updateNote(id: mark.id!, note: "")
        #expect(try library.bookmarks.bookmark(id: mark.id!)?.note == nil)
        // an unknown bookmark is an error naming it
        #expect(throws: LibraryError.notFound("no bookmark #999")) { try library.bookmarks.updateNote(id: 999, note: "x") }

        // When it is deleted, it is gone from the file
        try library.bookmarks.delete(id: mark.id!)
        #expect(try other.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM bookmark") } == 0)
        #expect(try library.bookmarks.bookmark(id: mark.id!) == nil)
        // and its id is never given to another bookmark (a script holding the JSON's `id` must not reach another)
        let next = try library.bookmarks.add(bookId: bookId, mediaId: mediaId, frame: 1, kind: .user)
        #expect(next.id! > mark.id!)
    }

    @Test func aBookWithNoSettingOfItsOwnFollowsTheDefaultsAndItsOwnWins() throws {
        // Given a book with no settings and one with its own speed
        let (library, _, bookId, _) = try libraryWithBook("defaults")
        #expect(try library.settings.ofBook(bookId).speed == 1)
        #expect(try library.settings.ofBook(bookId).skipIntervalSeconds == 30)

        // When the listener sets defaults
        var preferences = try library.settings.playerPreferences()
        preferences.defaultSpeed = 1.3
        preferences.defaultSkipSeconds = 45
        preferences.defaultSleepSeconds = 1800
        try library.settings.savePlayerPreferences(preferences)

        // Then the book follows them, and they are read back as stored
        #expect(try library.settings.ofBook(bookId).speed == 1.3)
        #expect(try library.settings.ofBook(bookId).skipIntervalSeconds == 45)
        #expect(try library.settings.playerPreferences().defaultSleepSeconds == 1800)

        // When the book's volume alone is saved, its speed still follows the default
        var settings = try library.settings.ofBook(bookId)
        settings.volume = 120
        try library.settings.save(settings)
        preferences.defaultSpeed = 1.4
        try library.settings.savePlayerPreferences(preferences)
        #expect(try library.settings.ofBook(bookId).speed == 1.4)

        // When the book gets a speed of its own, it wins over the default
        settings = try library.settings.ofBook(bookId)
        settings.speed = 1.5
        try library.settings.save(settings)
        #expect(try library.settings.ofBook(bookId).speed == 1.5)
        #expect(try library.settings.ofBook(bookId).ownSpeed == 1.5)

        // When it is cleared back to the default, the default applies again
        settings.ownSpeed = nil
        try library.settings.save(settings)
        #expect(try library.settings.ofBook(bookId).speed == 1.4)
    }
}
