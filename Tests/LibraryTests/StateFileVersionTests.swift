import Foundation
import Library
import Testing
import TestSupport

/// State files on disk in both directions: version 2 (percent, seconds) written and read back,
/// version 1 (a volume factor, minutes) read as migration v4 would convert it.
@Suite struct StateFileVersionTests {
    /// Two libraries of the same made-up books (the same fingerprints).
    func twoLibraries() throws -> (LibraryDatabase, LibraryDatabase) {
        let first = try LibraryDatabase()
        try first.books.insertSyntheticBooks(books: 2, itemsPerBook: 2, shelfFanout: 1)
        let second = try LibraryDatabase()
        try second.books.insertSyntheticBooks(books: 2, itemsPerBook: 2, shelfFanout: 1)
        return (first, second)
    }

    func read(_ file: URL) throws -> StateExport {
        try StateExport.decoder.decode(StateExport.self, from: Data(contentsOf: file))
    }

    @Test func aVersion2FileCarriesPercentAndSecondsThereAndBack() throws {
        // Given a book at 80 %, 1.25x, skip 15 s, sleep timer 30 min
        let (library, other) = try twoLibraries()
        let book = try library.books.book(matching: "Book 1")
        var settings = try library.settings.ofBook(book.id!)
        settings.volume = 80
        settings.speed = 1.25
        settings.skipIntervalSeconds = 15
        settings.sleepTimerSeconds = 1800
        try library.settings.save(settings)

        // When it is exported to a file
        let file = try BuildProducts.temporaryDirectory("state-v2").appending(path: "state.json")
        try StateExport.encoder.encode(try library.state.export()).write(to: file)

        // Then the file is version 2 with the new units and no old field
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        #expect(json["version"] as? Int == 2)
        let books = try #require(json["books"] as? [[String: Any]])
        let exported = try #require(books.first { $0["title"] as? String == "Book 1" }?["settings"] as? [String: Any])
        #expect(exported["volume"] as? Double == 80 && exported["speed"] as? Double == 1.25)
        #expect(exported["sleepTimerSeconds"] as? Double == 1800 && exported["skipIntervalSeconds"] as? Double == 15)
        #expect(exported["sleepTimerMinutes"] == nil)

        // When the file is imported into the other library
        let report = try other.state.apply(try read(file))

        // Then the settings arrive unchanged
        #expect(report.matched.count == 2 && report.unmatched.isEmpty)
        let otherBook = try other.books.book(matching: "Book 1").id!
        var expected = settings
        expected.bookId = otherBook
        #expect(try other.settings.ofBook(otherBook) == expected)
    }

    @Test func aVersion1FileIsReadInTheNewUnits() throws {
        // Given a file written by an abplayer before version 2: volume a factor, sleep timer in
        // minutes, a speed the engine never played (0.3), and a volume above what it played (2.5)
        let (library, _) = try twoLibraries()
        let items = { (book: Int) in
            let fingerprints = try library.books.items(ofBook: try library.books.book(matching: "Book \(book)").id!).map(\.fingerprint)
            return String(decoding: try JSONEncoder().encode(fingerprints), as: UTF8.self)
        }
        let file = try BuildProducts.temporaryDirectory("state-v1").appending(path: "old.json")
        try Data("""
            { "format": "abplayer-state", "version": 1, "exportedAt": "2025-03-01T10:00:00Z",
              "books": [
                { "title": "Book 0", "items": \(try items(0)), "finished": false, "bookmarks": [],
                  "settings": { "volume": 0.8, "speed": 0.3, "shuffle": true, "skipIntervalSeconds": 15,
                                "sleepTimerMinutes": 30, "repeatMode": "book" } },
                { "title": "Book 1", "items": \(try items(1)), "finished": false, "bookmarks": [],
                  "settings": { "volume": 2.5, "speed": 1.5, "shuffle": false, "skipIntervalSeconds": 30 } } ] }
            """.utf8).write(to: file)

        // When it is imported
        let report = try library.state.apply(try read(file))

        // Then volume is in percent (the factor x 100, at most 150), speed at least 0.5, the sleep
        // timer in seconds
        #expect(report.matched == ["Book 0", "Book 1"])
        let first = try library.settings.ofBook(try library.books.book(matching: "Book 0").id!)
        #expect(first.volume == 80 && first.speed == 0.5 && first.shuffle && first.skipIntervalSeconds == 15)
        #expect(first.sleepTimerSeconds == 1800 && first.repeatMode == .book)
        let second = try library.settings.ofBook(try library.books.book(matching: "Book 1").id!)
        #expect(second.volume == 150 && second.speed == 1.5 && second.sleepTimerSeconds == nil)
    }

    @Test func aVersion2FileWithSettingsOutOfRangeIsRefusedWholeNamingTheBook() throws {
        // Given a version 2 file whose second book has a volume of 200 %
        let (library, other) = try twoLibraries()
        var state = try library.state.export()
        #expect(state.version == 2)
        for index in state.books.indices {
            state.books[index].settings = .init(volume: 90, speed: 1, shuffle: false, skipIntervalSeconds: 30,
                                                sleepTimerSeconds: nil, repeatMode: .off)
        }
        state.books[1].settings?.volume = 200

        // When it is imported
        #expect {
            _ = try other.state.apply(state)
        } throws: { error in
            // Then it is refused with the book's name and the ranges
            "\(error)".contains(state.books[1].title) && "\(error)".contains("volume 0–150 %")
        }
        // and nothing was written, not even the first book's settings
        #expect(try other.settings.ofBook(try other.books.book(matching: state.books[0].title).id!).volume == 100)
    }
}
