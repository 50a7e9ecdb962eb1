import Foundation
import GRDB
@testable import Library
import Testing
import TestSupport

/// Migration v4: book settings from a volume factor and sleep-timer minutes to percent and
/// seconds, with the CHECKs rebuilt, on a real file made by the schema before it.
@Suite struct UnitsMigrationTests {
    static let previousVersion = "v3-queue-repeat-rewind"

    /// A library file as v3 left it: four books with settings in the old units, a position, a
    /// bookmark and a queue entry that refer to them.
    func version3Database(_ name: String) throws -> String {
        let path = try BuildProducts.temporaryDirectory(name).appending(path: "library.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try LibrarySchema.migrator.migrate(queue, upTo: Self.previousVersion)
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO book (id, title, addedAt) VALUES (1, 'Quiet', '2025-01-01'), (2, 'Loud and slow', '2025-01-01'),
                                                             (3, 'Odd', '2025-01-01'), (4, 'Muted', '2025-01-01');
                INSERT INTO media (id, path, size, fingerprint, sampleRate, durationFrames)
                    VALUES (10, '/b/1.mp3', 1, '1:a', 44100, 441000);
                INSERT INTO bookItem (bookId, mediaId, position) VALUES (1, 10, 0);
                INSERT INTO position (bookId, mediaId, frame, updatedAt) VALUES (1, 10, 4410, '2025-01-02');
                INSERT INTO bookmark (bookId, mediaId, frame, kind, createdAt) VALUES (1, 10, 100, 'user', '2025-01-02');
                INSERT INTO queueEntry (bookId, position) VALUES (2, 0);
                INSERT INTO bookSettings (bookId, volume, speed, shuffle, skipIntervalSeconds, sleepTimerMinutes, repeatMode)
                    VALUES (1, 0.8, 1.25, 1, 15, 30, 'book'),
                           (2, 4, 0.25, 0, 30, NULL, 'off'),
                           (3, 0.29, 4, 0, 10, 0.5, 'item'),
                           (4, 0, 1, 0, 30, 1.5, 'off');
                """)
        }
        try queue.close()
        return path
    }

    struct SettingsRow: Equatable {
        var volume: Double, speed: Double?, shuffle: Bool, skip: Double?, sleepSeconds: Double?, repeatMode: String
    }

    @Test func oldUnitsBecomePercentAndSecondsWithNothingElseLost() throws {
        // Given a v3 library file with settings in the old units
        let path = try version3Database("units-migration")

        // When today's abplayer opens it (and closes it again)
        do {
            let library = try LibraryDatabase(path: path)
            #expect(try library.writer.read { db in try LibrarySchema.migrator.appliedIdentifiers(db) }.contains(LibrarySchema.unitsVersion))
        }

        // Then, read back from the file by a plain connection, volume is in percent (at most 150),
        // speed at least 0.5, and the other columns as they were (v7 then makes the built-in speed
        // 1 and skip 30 NULL: they follow the listener's defaults; and clears the sleep times, the
        // last typed, never armed, now that a book's own is armed at its start: below, v4 alone
        // turned them into seconds)
        let queue = try DatabaseQueue(path: path)
        let rows = try queue.read { db in
            try Row.fetchAll(db, sql: """
                SELECT volume, speed, shuffle, skipIntervalSeconds, sleepTimerSeconds, repeatMode FROM bookSettings ORDER BY bookId
                """).map { SettingsRow(volume: $0[0], speed: $0[1], shuffle: $0[2], skip: $0[3], sleepSeconds: $0[4], repeatMode: $0[5]) }
        }
        #expect(rows == [
            SettingsRow(volume: 80, speed: 1.25, shuffle: true, skip: 15, sleepSeconds: nil, repeatMode: "book"),
            SettingsRow(volume: 150, speed: 0.5, shuffle: false, skip: nil, sleepSeconds: nil, repeatMode: "off"),
            SettingsRow(volume: 29, speed: 4, shuffle: false, skip: 10, sleepSeconds: nil, repeatMode: "item"),
            SettingsRow(volume: 0, speed: nil, shuffle: false, skip: nil, sleepSeconds: nil, repeatMode: "off"),
        ])
        // and the old column is gone (later migrations add columns after these)
        let columns = try queue.read { db in try db.columns(in: "bookSettings").map(\.name) }
        #expect(columns.prefix(7) == ["bookId", "volume", "speed", "shuffle", "skipIntervalSeconds", "sleepTimerSeconds", "repeatMode"])
        // and the rows that refer to the books are intact, with no foreign key broken
        let (positions, bookmarks, queued, broken) = try queue.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM position"), try Int.fetchOne(db, sql: "SELECT count(*) FROM bookmark"),
             try Int.fetchOne(db, sql: "SELECT bookId FROM queueEntry"), try Row.fetchAll(db, sql: "PRAGMA foreign_key_check"))
        }
        #expect(positions == 1 && bookmarks == 1 && queued == 2)
        #expect(broken.isEmpty)
        try queue.close()
        // and the library reads them as typed values
        let library = try LibraryDatabase(path: path)
        let quiet = try library.settings.ofBook(1)
        #expect(quiet.volume == 80 && quiet.sleepTimerSeconds == nil && quiet.repeatMode == .book)
    }

    @Test func theUnitsMigrationAloneTurnsSleepMinutesIntoSeconds() throws {
        // Given a v3 library file with sleep timers in minutes, migrated to v4 only
        let path = try version3Database("units-sleep")
        let queue = try DatabaseQueue(path: path)
        try LibrarySchema.migrator.migrate(queue, upTo: LibrarySchema.unitsVersion)
        // Then they are in seconds
        let sleeps = try queue.read { db in
            try Double?.fetchAll(db, sql: "SELECT sleepTimerSeconds FROM bookSettings ORDER BY bookId")
        }
        #expect(sleeps == [1800, nil, 30, 90])
        try queue.close()
    }

    @Test func theRebuiltTableKeepsItsForeignKeyAndHoldsTheNewRanges() throws {
        // Given a migrated v3 file
        let library = try LibraryDatabase(path: try version3Database("units-checks"))

        // Then the settings still belong to their book: deleting the book deletes them
        let reference = try library.writer.read { db in
            try Row.fetchOne(db, sql: "SELECT \"table\", \"to\", on_delete FROM pragma_foreign_key_list('bookSettings')")
                .map { [$0[0], $0[1], $0[2]] as [String] }
        }
        #expect(reference == ["book", "id", "CASCADE"])
        try library.books.deleteBook(4)
        #expect(try library.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM bookSettings WHERE bookId = 4") } == 0)
        // and a row for a book that does not exist is refused
        #expect(throws: DatabaseError.self) {
            try library.writer.write { db in try db.execute(sql: "INSERT INTO bookSettings (bookId) VALUES (99)") }
        }

        // and the CHECKs hold exactly the ranges the player accepts: volume 0-150 %, speed 0.5-4
        var settings = try library.settings.ofBook(3)
        for (volume, speed, accepted) in [(150.0, 0.5, true), (0.0, 4.0, true), (150.01, 1.0, false), (-0.01, 1.0, false),
                                          (100.0, 0.49, false), (100.0, 4.01, false)] {
            settings.volume = volume
            settings.speed = speed
            if accepted {
                try library.settings.save(settings)
                #expect(try library.settings.ofBook(3) == settings)
            } else {
                #expect(throws: LibraryError.self, "volume \(volume), speed \(speed)") { try library.settings.save(settings) }
            }
        }
        settings.sleepTimerSeconds = 0
        #expect(throws: LibraryError.self) { try library.settings.save(settings) }
        // and a new book's settings start at 100 %
        #expect(BookSettings(bookId: 1).volume == 100)
        let defaulted = try library.writer.write { db in
            try db.execute(sql: "DELETE FROM bookSettings WHERE bookId = 1")
            try db.execute(sql: "INSERT INTO bookSettings (bookId) VALUES (1)")
            return try Double.fetchOne(db, sql: "SELECT volume FROM bookSettings WHERE bookId = 1")
        }
        #expect(defaulted == 100)
    }
}
