import Foundation
import GRDB
@testable import Library
import Testing
import TestSupport

@Suite struct MigrationTests {
    /// A database file as the first schema made it, with a shelf, a book, two media, a position
    /// and settings in it.
    func firstSchemaDatabase() throws -> String {
        let path = try BuildProducts.temporaryDirectory("migration").appending(path: "library.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try LibrarySchema.migrator.migrate(queue, upTo: LibrarySchema.firstVersion)
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO shelf (id, parentId, name, createdAt) VALUES (1, NULL, 'Old shelf', '2025-01-01 10:00:00');
                INSERT INTO book (id, shelfId, title, author, addedAt) VALUES (7, 1, 'The Old Book', 'Someone', '2025-01-01 10:00:00');
                INSERT INTO media (id, path, size, fingerprint, sampleRate, durationFrames, title)
                    VALUES (3, '/books/old/1.mp3', 1000, '1000:00000000000000aa', 44100, 441000, 'One'),
                           (4, '/books/old/2.mp3', 2000, '2000:00000000000000bb', 44100, 882000, 'Two');
                INSERT INTO bookItem (bookId, mediaId, position) VALUES (7, 3, 0), (7, 4, 1);
                INSERT INTO position (bookId, mediaId, frame, updatedAt) VALUES (7, 4, 44100, '2025-01-02 10:00:00');
                INSERT INTO bookSettings (bookId, volume, speed, shuffle, skipIntervalSeconds) VALUES (7, 0.5, 1.25, 0, 15);
                """)
        }
        try queue.close()
        return path
    }

    @Test func aFirstSchemaDatabaseIsMigratedWithNothingLost() throws {
        // Given a database of the first schema holding data
        let path = try firstSchemaDatabase()

        // When today's abplayer opens it
        let library = try LibraryDatabase(path: path)

        // Then every migration is applied and everything is still there
        let applied = try library.writer.read { db in try LibrarySchema.migrator.appliedMigrations(db) }
        #expect(applied == LibrarySchema.migrator.migrations)
        let book = try library.catalog.bookListing(id: 7)
        #expect(book.title == "The Old Book" && book.author == "Someone" && book.shelf == "Old shelf")
        #expect(book.items.map(\.title) == ["One", "Two"])
        #expect(book.positionSeconds == 11)   // item 1 is 10 s, then 1 s into item 2
        #expect(book.finished == false)
        let settings = try library.settings.ofBook(7)
        #expect(settings.volume == 50 && settings.speed == 1.25 && settings.skipIntervalSeconds == 15)   // 0.5 was a gain
        // and the new tables work with the old rows
        try library.bookmarks.add(bookId: 7, mediaId: 4, frame: 100, kind: .user, note: "after migration")
        #expect(try library.bookmarks.all(ofBook: 7).map(\.note) == ["after migration"])
    }

    @Test func aLibraryMadeBeforeTheMarkIsRecognisedAndMarked() throws {
        // Given a library of the first schema: no application id, only GRDB's record of v1
        let path = try firstSchemaDatabase()
        let unmarked = try DatabaseQueue(path: path).read { db in try Int32.fetchOne(db, sql: "PRAGMA application_id") }
        #expect(unmarked == 0)

        // When today's abplayer opens it, then it is taken as a library and marked "abpl"
        let library = try LibraryDatabase(path: path)
        let marked = try library.writer.read { db in try Int32.fetchOne(db, sql: "PRAGMA application_id") }
        #expect(marked == LibraryDatabase.applicationId)
    }

    /// An SQLite file another program made with `statements` (each outside a transaction, as a
    /// PRAGMA must be), and its bytes.
    func otherProgramsDatabase(_ name: String, _ statements: String...) throws -> (path: String, bytes: Data) {
        let path = try BuildProducts.temporaryDirectory(name).appending(path: "other.sqlite").path
        let queue = try DatabaseQueue(path: path)
        for statement in statements { try queue.writeWithoutTransaction { db in try db.execute(sql: statement) } }
        try queue.close()
        return (path, try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test func anotherProgramsDatabaseIsRefusedAndLeftUntouched() throws {
        // Given an SQLite file of another program, in WAL mode as many are
        let (path, before) = try otherProgramsDatabase("foreign", "CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT); CREATE TABLE tag (name TEXT)",
                                                         "PRAGMA journal_mode = WAL")

        // When it is opened as a library, it is refused with its tables named
        #expect {
            _ = try LibraryDatabase(path: path)
        } throws: { error in
            guard case let LibraryError.notALibrary(refused, tables, _, _, _) = error else { return false }
            return refused == path && tables == ["note", "tag"] && "\(error)".contains("name another file with --library")
        }

        // Then the file is unchanged
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test(arguments: [
        ("CREATE VIEW totals AS SELECT 1 AS one", "it has view totals"),
        ("PRAGMA user_version = 7", "another program's: user_version 7"),
    ])
    func aDatabaseWithOnlyAViewOrAUserVersionIsRefusedAndLeftUntouched(sql: String, said: String) throws {
        // Given an SQLite file that holds only a view, or only a user_version (no table)
        let (path, before) = try otherProgramsDatabase("foreign-bare", sql)

        // When it is opened as a library, it is refused saying what it holds
        #expect {
            _ = try LibraryDatabase(path: path)
        } throws: { error in
            guard case let LibraryError.notALibrary(refused, tables, _, _, _) = error else { return false }
            return refused == path && tables.isEmpty && "\(error)".contains("is not an abplayer library (\(said))")
                && "\(error)".contains("name another file with --library")
        }

        // Then the file is unchanged: no application id, no journal mode, no table written
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func aDatabaseFromANewerVersionIsRefusedAndLeftUntouched() throws {
        // Given a library that a newer abplayer migrated further
        let path = try firstSchemaDatabase()
        do {
            let library = try LibraryDatabase(path: path)
            try library.writer.write { db in
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')")
            }
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        // When this abplayer opens it, it refuses with a message naming the file and the schema
        #expect {
            _ = try LibraryDatabase(path: path)
        } throws: { error in
            guard case let LibraryError.newerSchema(refused, migrations) = error else { return false }
            return refused == path && migrations == ["v99-from-the-future"]
                && "\(error)".contains("newer abplayer")
        }

        // Then the file is unchanged
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func theDatabaseEnforcesItsInvariants() throws {
        let library = try LibraryDatabase()
        try library.writer.write { db in
            // Foreign keys are on
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO book (shelfId, title, addedAt) VALUES (999, 'x', '2025-01-01')")
            }
            // CHECKs refuse empty titles and negative frames
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO book (title, addedAt) VALUES ('', '2025-01-01')") }
        }
        // Out-of-range settings are refused by the database, reported as a library error
        let bookId = try library.writer.write { db in
            var book = Book(id: nil, shelfId: nil, title: "Fast", addedAt: Date())
            try book.insert(db)
            return book.id!
        }
        var settings = BookSettings(bookId: bookId)
        settings.speed = 2
        try library.settings.save(settings)
        settings.speed = 10
        #expect(throws: LibraryError.self) { try library.settings.save(settings) }
        #expect(try library.settings.ofBook(bookId).speed == 2)
        // WAL on disk
        let path = try BuildProducts.temporaryDirectory("wal").appending(path: "l.sqlite").path
        let onDisk = try LibraryDatabase(path: path)
        #expect(try onDisk.writer.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
    }

    @Test func v7KeepsChosenSettingsAndLetsTheBuiltInOnesFollowTheListenersDefaults() throws {
        // Given a v6 library: one book with speed 1.25 and skip 15 chosen, one whose row holds the
        // built-in 1 and 30 (made by a volume change), and automatic and user bookmarks
        let path = try BuildProducts.temporaryDirectory("migration-v7").appending(path: "library.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try LibrarySchema.migrator.migrate(queue, upTo: LibrarySchema.bookDetailsVersion)
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO book (id, title, addedAt) VALUES (1, 'Chosen', '2025-01-01 10:00:00'), (2, 'Built-in', '2025-01-01 10:00:00');
                INSERT INTO media (id, path, size, fingerprint, sampleRate, durationFrames) VALUES
                    (1, '/b/1.mp3', 10, '10:01', 44100, 441000), (2, '/b/2.mp3', 20, '20:02', 44100, 441000);
                INSERT INTO bookItem (bookId, mediaId, position) VALUES (1, 1, 0), (2, 2, 0);
                INSERT INTO bookSettings (bookId, volume, speed, shuffle, skipIntervalSeconds, repeatMode)
                    VALUES (1, 100, 1.25, 0, 15, 'off'), (2, 80, 1, 0, 30, 'book');
                INSERT INTO bookmark (bookId, mediaId, frame, kind, note, createdAt) VALUES
                    (1, 1, 100, 'user', 'kept', '2025-01-01 10:00:00'), (1, 1, 200, 'beforeSeek', NULL, '2025-01-01 10:00:01');
                """)
        }
        try queue.close()

        // When today's abplayer opens it and the listener sets a default speed and skip
        let library = try LibraryDatabase(path: path)
        var preferences = try library.settings.playerPreferences()
        preferences.defaultSpeed = 1.3
        preferences.defaultSkipSeconds = 20
        try library.settings.savePlayerPreferences(preferences)

        // Then the chosen settings are the book's own; the built-in ones follow the defaults
        let chosen = try library.settings.ofBook(1)
        #expect(chosen.ownSpeed == 1.25 && chosen.speed == 1.25 && chosen.skipIntervalSeconds == 15)
        let builtIn = try library.settings.ofBook(2)
        #expect(builtIn.ownSpeed == nil && builtIn.speed == 1.3 && builtIn.skipIntervalSeconds == 20)
        #expect(builtIn.volume == 80 && builtIn.repeatMode == .book)
        let stored = try library.writer.read { db in
            try Row.fetchOne(db, sql: "SELECT speed, skipIntervalSeconds FROM bookSettings WHERE bookId = 2")
        }
        #expect(stored?[0] as Double? == nil && stored?[1] as Double? == nil)
        // and the bookmarks are all there, with the new kind accepted and the CHECK still on
        #expect(try library.bookmarks.all(ofBook: 1).map(\.kind) == [.user, .beforeSeek])
        try library.bookmarks.add(bookId: 1, mediaId: 1, frame: 300, kind: .beforeBookmarkJump)
        #expect(try library.bookmarks.all(ofBook: 1).map(\.kind).last == .beforeBookmarkJump)
        #expect(throws: DatabaseError.self) {
            try library.writer.write { db in
                try db.execute(sql: "INSERT INTO bookmark (bookId, mediaId, frame, kind, createdAt) VALUES (1, 1, 1, 'other', '2025-01-01')")
            }
        }
        // and defaults out of range are refused by the database
        preferences.defaultSpeed = 9
        #expect(throws: LibraryError.self) { try library.settings.savePlayerPreferences(preferences) }
    }

    @Test func v14LeavesEveryBookFollowingTheDefaultsAndChecksTheLengths() throws {
        // Given a v13 library: a book with settings and a listening session
        let path = try BuildProducts.temporaryDirectory("migration-v14").appending(path: "library.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try LibrarySchema.migrator.migrate(queue, upTo: LibrarySchema.syncJournalMarkVersion)
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO book (id, title, addedAt) VALUES (1, 'Lectures', '2025-01-01 10:00:00');
                INSERT INTO media (id, path, size, fingerprint, sampleRate, durationFrames) VALUES (1, '/b/1.mp3', 10, '10:01', 44100, 441000);
                INSERT INTO bookItem (bookId, mediaId, position) VALUES (1, 1, 0);
                INSERT INTO bookSettings (bookId, volume, speed, shuffle, repeatMode) VALUES (1, 100, 1.5, 0, 'off');
                INSERT INTO listeningSession (bookId, fromMediaId, fromFrame, toMediaId, toFrame, startedAt, endedAt, wallSeconds, speed)
                    VALUES (1, 1, 0, 1, 44100, '2025-01-01 10:00:00', '2025-01-01 10:00:01', 1, 1);
                """)
        }
        try queue.close()

        // When today's abplayer opens it
        let library = try LibraryDatabase(path: path)

        // Then the book has no intro or outro of its own, none is left out, and nothing was counted
        var settings = try library.settings.ofBook(1)
        #expect(settings.speed == 1.5 && settings.ownSkipIntroSeconds == nil && settings.ownSkipOutroSeconds == nil)
        #expect(settings.skipIntroSeconds == 0 && settings.skipOutroSeconds == 0)
        #expect(try library.history.skippedSeconds(.introOutro, ofBook: 1) == 0)
        // and a default applies to it, its own wins, and both read back
        var preferences = try library.settings.playerPreferences()
        preferences.defaultSkipIntroSeconds = 30
        try library.settings.savePlayerPreferences(preferences)
        #expect(try library.settings.ofBook(1).skipIntroSeconds == 30)
        settings.skipOutroSeconds = 45
        try library.settings.save(settings)
        let read = try library.settings.ofBook(1)
        #expect(read.skipIntroSeconds == 30 && read.ownSkipOutroSeconds == 45)
        // and lengths past 10 minutes are refused by the database
        settings.skipIntroSeconds = 601
        #expect(throws: LibraryError.self) { try library.settings.save(settings) }
        preferences.defaultSkipOutroSeconds = -1
        #expect(throws: LibraryError.self) { try library.settings.savePlayerPreferences(preferences) }
    }
}
