import Foundation
import Library
import Testing
import TestSupport

/// Intro and outro skipping in `export` and `import-state`: the book's own and the defaults
/// travel; a book that follows the default still does.
@Suite struct IntroOutroStateTests {
    @Test func theBooksOwnAndTheDefaultsTravelWithTheState() throws {
        // Given a library with an outro default of 45 s and one book with its own intro (30 s)
        let library = try LibraryDatabase()
        _ = try importer(library).importPaths([try Fixtures.audiobookTree().path])
        let other = try LibraryDatabase()
        _ = try importer(other).importPaths([try copyOfAudiobookTree("export-intro-outro").path])
        var preferences = try library.settings.playerPreferences()
        preferences.defaultSkipOutroSeconds = 45
        try library.settings.savePlayerPreferences(preferences)
        var war = try library.settings.ofBook(try library.books.book(matching: "War").id!)
        war.skipIntroSeconds = 30
        try library.settings.save(war)
        var master = try library.settings.ofBook(try library.books.book(matching: "Мастер").id!)
        master.volume = 120
        try library.settings.save(master)

        // When the state travels to the other library
        let json = try StateExport.encoder.encode(try library.state.export())
        _ = try other.state.apply(try StateExport.decoder.decode(StateExport.self, from: json))

        // Then the default is there, the book's own intro is its own, its outro and the other book follow the default
        #expect(try other.settings.playerPreferences().defaultSkipOutroSeconds == 45)
        let otherWar = try other.settings.ofBook(try other.books.book(matching: "War").id!)
        #expect(otherWar.ownSkipIntroSeconds == 30 && otherWar.ownSkipOutroSeconds == nil && otherWar.skipOutroSeconds == 45)
        let otherMaster = try other.settings.ofBook(try other.books.book(matching: "Мастер").id!)
        #expect(otherMaster.ownSkipIntroSeconds == nil && otherMaster.skipIntroSeconds == 0 && otherMaster.skipOutroSeconds == 45)
    }
}
