import Foundation
import Library
import Testing
import TestSupport

@Suite struct StateExportTests {
    @Test func theListenersDefaultsTravelAndABookThatFollowsThemStillDoes() throws {
        // Given a library with defaults set, one book with its own speed and one following the default
        let library = try LibraryDatabase()
        _ = try importer(library).importPaths([try Fixtures.audiobookTree().path])
        let other = try LibraryDatabase()
        _ = try importer(other).importPaths([try copyOfAudiobookTree("export-defaults").path])
        var preferences = try library.settings.playerPreferences()
        preferences.defaultSpeed = 1.3
        preferences.defaultSkipSeconds = 45
        preferences.defaultSleepSeconds = 1200
        try library.settings.savePlayerPreferences(preferences)
        let war = try library.books.book(matching: "War")
        var own = try library.settings.ofBook(war.id!)
        own.speed = 1.5
        try library.settings.save(own)
        let master = try library.books.book(matching: "Мастер")
        var following = try library.settings.ofBook(master.id!)
        following.volume = 120
        try library.settings.save(following)

        // When the state travels to the other library
        let json = try StateExport.encoder.encode(try library.state.export())
        _ = try other.state.apply(try StateExport.decoder.decode(StateExport.self, from: json))

        // Then the defaults are there, the book's own speed is its own, and the other book follows the default
        let imported = try other.settings.playerPreferences()
        #expect(imported.defaultSpeed == 1.3 && imported.defaultSkipSeconds == 45 && imported.defaultSleepSeconds == 1200)
        let otherWar = try other.settings.ofBook(try other.books.book(matching: "War").id!)
        #expect(otherWar.ownSpeed == 1.5 && otherWar.ownSkipIntervalSeconds == nil && otherWar.skipIntervalSeconds == 45)
        let otherMaster = try other.settings.ofBook(try other.books.book(matching: "Мастер").id!)
        #expect(otherMaster.ownSpeed == nil && otherMaster.speed == 1.3 && otherMaster.volume == 120)
    }

    @Test func theLoudnessSettingsTravelButNotTheMeasures() throws {
        // Given a library with loudness off by default at a -20 LUFS target, one book evened out
        // by its own setting and measured
        let library = try LibraryDatabase()
        _ = try importer(library).importPaths([try Fixtures.audiobookTree().path])
        let other = try LibraryDatabase()
        _ = try importer(other).importPaths([try copyOfAudiobookTree("export-loudness").path])
        var preferences = try library.settings.playerPreferences()
        preferences.loudness = false
        preferences.loudnessTargetLUFS = -20
        try library.settings.savePlayerPreferences(preferences)
        let war = try library.books.book(matching: "War")
        var own = try library.settings.ofBook(war.id!)
        own.loudness = true
        try library.settings.save(own)
        try library.settings.saveLoudness(LoudnessReading(integratedLUFS: -23, peakDBTP: -2, isTruePeak: true), ofBook: war.id!,
                                          measuredOver: try library.books.items(ofBook: war.id!))

        // When the state travels to the other library
        let json = try StateExport.encoder.encode(try library.state.export())
        _ = try other.state.apply(try StateExport.decoder.decode(StateExport.self, from: json))

        // Then the defaults and the book's own setting are there; the measure is not (it is
        // measured again from the files)
        let imported = try other.settings.playerPreferences()
        #expect(imported.loudness == false && imported.loudnessTargetLUFS == -20)
        let otherWar = try other.books.book(matching: "War").id!
        #expect(try other.settings.ofBook(otherWar).loudness == true)
        #expect(try other.settings.ofBook(try other.books.book(matching: "Мастер").id!).loudness == nil)
        #expect(try other.settings.loudness(ofBook: otherWar) == nil)
    }

    @Test func positionsBookmarksAndSettingsTravelBetweenLibrariesByFingerprint() throws {
        // Given two libraries of the same files, imported from different places
        let library = try LibraryDatabase()
        _ = try importer(library).importPaths([try Fixtures.audiobookTree().path])
        let other = try LibraryDatabase()
        _ = try importer(other).importPaths([try copyOfAudiobookTree("export").path])

        // and state in the first: a position, settings, bookmarks of two kinds, a finished book
        let war = try library.books.book(matching: "War")
        let items = try library.books.items(ofBook: war.id!)
        try library.positions.savePosition(bookId: war.id!, mediaId: items[3].id!, frame: 4321)
        var settings = try library.settings.ofBook(war.id!)
        settings.speed = 1.5
        settings.skipIntervalSeconds = 10
        settings.volume = 80
        settings.sleepTimerSeconds = 1200
        settings.repeatMode = .book
        try library.settings.save(settings)
        // and a queue of two books, and the auto-rewind preference
        let master = try library.books.book(matching: "Мастер")
        _ = try library.queue.enqueue(bookId: master.id!)
        _ = try library.queue.enqueue(bookId: war.id!)
        var preferences = try library.settings.playerPreferences()
        preferences.autoRewindMaxSeconds = 12
        try library.settings.savePlayerPreferences(preferences)
        try library.bookmarks.add(bookId: war.id!, mediaId: items[0].id!, frame: 10, kind: .user, note: "«quote»")
        try library.bookmarks.add(bookId: war.id!, mediaId: items[1].id!, frame: 20, kind: .beforeSeek)
        try library.positions.markFinished(bookId: try library.books.book(matching: "Мастер").id!)

        // When it is exported to JSON and imported into the other library (twice)
        let json = try StateExport.encoder.encode(try library.state.export())
        let state = try StateExport.decoder.decode(StateExport.self, from: json)
        let report = try other.state.apply(state)
        _ = try other.state.apply(state)

        // Then every book is matched and the state is the same, bookmarks not doubled
        #expect(report.unmatched.isEmpty && report.matched.count == 4)
        let otherWar = try other.books.book(matching: "War")
        let otherItems = try other.books.items(ofBook: otherWar.id!)
        #expect(try other.positions.ofBook(otherWar.id!)?.mediaId == otherItems[3].id)
        #expect(try other.positions.ofBook(otherWar.id!)?.frame == 4321)
        var expected = settings
        expected.bookId = otherWar.id!
        #expect(try other.settings.ofBook(otherWar.id!) == expected)
        let marks = try other.bookmarks.all(ofBook: otherWar.id!)
        #expect(marks.map(\.note) == ["«quote»", nil])
        #expect(marks.map(\.kind) == [.user, .beforeSeek])
        #expect(marks.map(\.mediaId) == [otherItems[0].id, otherItems[1].id])
        #expect(try other.catalog.bookListing(id: try other.books.book(matching: "Мастер").id!).finished)
        #expect(try other.queue.books().map(\.title) == [master.title, war.title])
        #expect(try other.settings.playerPreferences().autoRewindMaxSeconds == 12)
        // and the document says what it is
        let top = try JSONSerialization.jsonObject(with: json) as? [String: Any]
        #expect(top?["format"] as? String == "abplayer-state" && top?["version"] as? Int == 2)
    }

    @Test func aStateFileOfAnotherFormatIsRefused() throws {
        let library = try LibraryDatabase()
        var state = try library.state.export()
        state.format = "something-else"
        #expect(throws: LibraryError.self) { _ = try library.state.apply(state) }
        state.format = "abplayer-state"
        state.version = 3
        #expect(throws: LibraryError.self) { _ = try library.state.apply(state) }
    }
}
