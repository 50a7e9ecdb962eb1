import Foundation
import GRDB
@testable import Library
import Testing
import TestSupport

/// Intro and outro skipping travel with a book's other settings: the journal's `intro` and
/// `outro` keys read back exactly, an older writer's line without them reads as none of the
/// book's own, and a length out of range makes the line damaged.
@Suite struct SyncIntroOutroTests {
    let laptop = DeviceID("LAPTOP-1")!
    let book = SyncBookIdentity(items: ["1000:00000000000000aa"], title: "Lectures", author: nil, seconds: 600)

    @Test func introAndOutroTravelAndOldLinesStillRead() throws {
        // Given a settings line with both, one with the intro only, and lines as older writers made them
        let ref = SyncJournalFormat.reference(of: book)
        var journal = SyncJournalFormat.header(device: laptop)
        journal += "B\t\(ref)\tLectures\t\t600.000\t1000:00000000000000aa\n"                         // 2
        let written = SyncJournalFormat.settingsFields(SyncBookSettings(speed: 1.5, skipIntroSeconds: 30, skipOutroSeconds: 45.5))
        #expect(written.contains("intro=30.0") && written.contains("outro=45.5"))
        journal += "S\t\(ref)\t1764000001000\t" + written.joined(separator: "\t") + "\n"                    // 3
        journal += "S\t\(ref)\t1764000002000\tspeed=1.25\tshuffle=1\n"                                // 4: older writer
        journal += "S\t\(ref)\t1764000003000\tintro=601\n"                                            // 5: out of range
        journal += "S\t\(ref)\t1764000004000\toutro=-1\n"                                             // 6: out of range
        journal += "S\t\(ref)\t1764000005000\tintro=0\toutro=\n"                                      // 7: intro off, outro default

        // When it is read
        let read = try #require(SyncJournal.parse(Array(journal.utf8)))

        // Then the lengths read back, the older line has none of its own, the damaged lines are counted
        #expect(read.records.map(\.change) == [
            .settings(SyncBookSettings(speed: 1.5, skipIntroSeconds: 30, skipOutroSeconds: 45.5)),
            .settings(SyncBookSettings(speed: 1.25, shuffle: true)),
            .settings(SyncBookSettings(skipIntroSeconds: 0)),
        ])
        #expect(read.damagedLines == [5, 6])
    }

    @Test func changingOnlyTheIntroOrOutroDatesTheBooksSettingsForSync() throws {
        // Given a book whose settings were never changed
        let library = try LibraryDatabase()
        _ = try importer(library).importPaths([try Fixtures.audiobookTree().path])
        let book = try library.books.book(matching: "War").id!
        func changedAt() throws -> String? {
            try library.writer.read { db in try String.fetchOne(db, sql: "SELECT settingsChangedAt FROM book WHERE id = ?", arguments: [book]) }
        }
        #expect(try changedAt() == nil)

        // When only its intro is set (a new settings row), then only its outro (an update)
        var settings = try library.settings.ofBook(book)
        settings.skipIntroSeconds = 30
        try library.settings.save(settings)
        let first = try #require(try changedAt())
        try library.writer.write { db in try db.execute(sql: "UPDATE book SET settingsChangedAt = '2000-01-01 00:00:00.000' WHERE id = ?", arguments: [book]) }
        settings.skipOutroSeconds = 45
        try library.settings.save(settings)

        // Then each change dated the settings (what sync compares to take the newest)
        #expect(first > "2020")
        #expect(try changedAt().map { $0 > "2020" } == true)
        // and a save that changes neither (the volume) does not
        try library.writer.write { db in try db.execute(sql: "UPDATE book SET settingsChangedAt = '2000-01-01 00:00:00.000' WHERE id = ?", arguments: [book]) }
        settings.volume = 90
        try library.settings.save(settings)
        #expect(try changedAt() == "2000-01-01 00:00:00.000")
    }
}
