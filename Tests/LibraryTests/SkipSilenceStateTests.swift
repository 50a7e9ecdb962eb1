import Foundation
import GRDB
import Library
import Testing
import TestSupport

/// Skip silence in the library: the settings as stored and as exported, and the time saved.
@Suite struct SkipSilenceStateTests {
    @Test func theBooksSettingAndTheDefaultTravelWithTheState() throws {
        // Given a library with a skip silence default, one book with its own setting (off)
        let library = try LibraryDatabase()
        _ = try importer(library).importPaths([try Fixtures.audiobookTree().path])
        let other = try LibraryDatabase()
        _ = try importer(other).importPaths([try copyOfAudiobookTree("export-skip-silence").path])
        var preferences = try library.settings.playerPreferences()
        preferences.defaultSkipSilence = .on(minimumMs: 900)
        try library.settings.savePlayerPreferences(preferences)
        let war = try library.books.book(matching: "War")
        var own = try library.settings.ofBook(war.id!)
        own.skipSilence = .off
        try library.settings.save(own)
        let master = try library.books.book(matching: "Мастер")
        var following = try library.settings.ofBook(master.id!)
        following.volume = 120
        try library.settings.save(following)

        // When the state travels to the other library
        let json = try StateExport.encoder.encode(try library.state.export())
        _ = try other.state.apply(try StateExport.decoder.decode(StateExport.self, from: json))

        // Then the default is there, the book's own is its own, and the other book follows the default
        #expect(try other.settings.playerPreferences().defaultSkipSilence == .on(minimumMs: 900))
        let otherWar = try other.settings.ofBook(try other.books.book(matching: "War").id!)
        #expect(otherWar.ownSkipSilence == .off && otherWar.skipSilence == .off)
        let otherMaster = try other.settings.ofBook(try other.books.book(matching: "Мастер").id!)
        #expect(otherMaster.ownSkipSilence == nil && otherMaster.skipSilence == .on(minimumMs: 900))
    }

    @Test func theTimeSavedIsKeptPerSessionAndSummedPerBookAndInTotal() throws {
        // Given two books, each with a session
        let library = try LibraryDatabase()
        _ = try importer(library).importPaths([try Fixtures.audiobookTree().path])
        let war = try library.books.book(matching: "War")
        let master = try library.books.book(matching: "Мастер")
        let first = try library.positions.startSession(bookId: war.id!, mediaId: try library.books.items(ofBook: war.id!)[0].id!, frame: 0, speed: 1)
        let second = try library.positions.startSession(bookId: master.id!, mediaId: try library.books.items(ofBook: master.id!)[0].id!, frame: 0, speed: 1)
        // When skip silence saved 12.5 s in one and 3 s in the other (a session's running total)
        try library.history.saveSkipped(.silence, session: first, seconds: 10)
        try library.history.saveSkipped(.silence, session: first, seconds: 12.5)
        try library.history.saveSkipped(.silence, session: second, seconds: 3)
        // Then each book has its own, and the library the sum
        #expect(try library.history.skippedSeconds(.silence, ofBook: war.id!) == 12.5)
        #expect(try library.history.skippedSeconds(.silence, ofBook: master.id!) == 3)
        #expect(try library.history.skippedSeconds(.silence) == 15.5)
    }

    @Test func aSettingOutOfRangeIsRefusedByTheDatabase() throws {
        let library = try LibraryDatabase()
        _ = try importer(library).importPaths([try Fixtures.audiobookTree().path])
        var settings = try library.settings.ofBook(try library.books.book(matching: "War").id!)
        settings.skipSilence = .on(minimumMs: 100)
        #expect(throws: LibraryError.self) { try library.settings.save(settings) }
    }
}
