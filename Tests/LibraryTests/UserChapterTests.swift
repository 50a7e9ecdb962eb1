import Foundation
import GRDB
@testable import Library
import Testing
import TestSupport

@Suite struct UserChapterTests {
    /// The chapters as SQLite holds them: (media id, frame, title), in media and frame order.
    private func storedChapters(_ library: LibraryDatabase, bookId: Int64) throws -> [(Int64, Int64, String)] {
        try library.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT mediaId, frame, title FROM userChapter WHERE bookId = ? ORDER BY mediaId, frame",
                             arguments: [bookId]).map { ($0[0], $0[1], $0[2]) }
        }
    }

    @Test func theMigrationsAreNamedAndOrderedAsShipped() {
        #expect(Array(LibrarySchema.migrator.migrations.suffix(9))
                == ["v7-listener-defaults-bookmark-jumps", "v8-book-loudness", "v9-skip-silence", "v10-user-chapters", "v11-sync-device",
                    "v12-sync-settings-chapters", "v13-sync-journal-mark", "v14-skip-intro-outro",
                    "v15-plain-mode"])
    }

    @Test func chaptersAreStoredRenamedAndRemoved() throws {
        // Given an imported book
        let library = try LibraryDatabase()
        _ = try importer(library).importPaths([try Fixtures.audiobookTree().path])
        let book = try library.books.book(matching: "War")
        let media = try library.books.items(ofBook: book.id!)

        // When two chapters are added, one renamed and the other removed
        let first = try library.books.addUserChapter(UserChapterStart(mediaId: media[0].id!, frame: 0, title: "Opening"), toBook: book.id!)
        let second = try library.books.addUserChapter(UserChapterStart(mediaId: media[1].id!, frame: 4410, title: "Battle"), toBook: book.id!)
        try library.books.renameUserChapter(id: second.id!, title: "The battle")
        try library.books.deleteUserChapter(id: first.id!)

        // Then the database holds just the renamed one, at its place
        let stored = try storedChapters(library, bookId: book.id!)
        #expect(stored.count == 1)
        #expect(stored.first.map { $0.0 == media[1].id! && $0.1 == 4410 && $0.2 == "The battle" } == true)
        // and a chapter twice at one place, an empty title, or a chapter that is not there are refused in words
        #expect(throws: LibraryError.invalid("there is already a chapter at that place")) {
            try library.books.addUserChapter(UserChapterStart(mediaId: media[1].id!, frame: 4410, title: "Again"), toBook: book.id!)
        }
        #expect(throws: LibraryError.invalid("a chapter needs a title that is not empty")) {
            try library.books.addUserChapter(UserChapterStart(mediaId: media[1].id!, frame: 1, title: "  "), toBook: book.id!)
        }
        #expect(throws: LibraryError.notFound("no chapter #\(first.id!)")) { try library.books.deleteUserChapter(id: first.id!) }
        // and replacing the list with nothing leaves the book none
        try library.books.replaceUserChapters(ofBook: book.id!, with: [])
        #expect(try storedChapters(library, bookId: book.id!).isEmpty)
    }

    @Test func chaptersFollowTheirFilesToANewFolderThroughARescan() throws {
        // Given a book with chapters of its own
        let tree = try copyOfAudiobookTree("user-chapters-rescan")
        let library = try LibraryDatabase()
        _ = try importer(library).importPaths([tree.path])
        let book = try library.books.book(matching: "War & Peace")
        let media = try library.books.items(ofBook: book.id!)
        try library.books.replaceUserChapters(ofBook: book.id!, with: [
            UserChapterStart(mediaId: media[0].id!, frame: 0, title: "Start"),
            UserChapterStart(mediaId: media[2].id!, frame: 2205, title: "Second disc"),
        ])

        // When its folder is moved elsewhere and the library rescanned
        let moved = tree.appending(path: "Elsewhere/War")
        try FileManager.default.createDirectory(at: moved.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: tree.appending(path: "Tolstoy's \"War & Peace\""), to: moved)
        let report = try library.media.rescan()

        // Then the files are found at their new paths and the chapters are still on the same files
        #expect(report.moved.count == 4 && report.missing.isEmpty)
        let stored = try storedChapters(library, bookId: book.id!)
        #expect(stored.map(\.2) == ["Start", "Second disc"])
        #expect(stored.map(\.0) == [media[0].id!, media[2].id!])
        let pathOfSecond = try library.books.items(ofBook: book.id!).first { $0.id == stored[1].0 }?.path
        #expect(pathOfSecond?.hasPrefix(moved.path + "/") == true)
    }

    @Test func chaptersTravelInAStateFileToALibraryOfTheSameFilesElsewhere() throws {
        // Given a book with chapters of its own, and another library of the same files at other paths
        let library = try LibraryDatabase()
        _ = try importer(library).importPaths([try Fixtures.audiobookTree().path])
        let other = try LibraryDatabase()
        _ = try importer(other).importPaths([try copyOfAudiobookTree("user-chapters-export").path])
        let war = try library.books.book(matching: "War")
        let media = try library.books.items(ofBook: war.id!)
        try library.books.replaceUserChapters(ofBook: war.id!, with: [
            UserChapterStart(mediaId: media[0].id!, frame: 0, title: "Peace"),
            UserChapterStart(mediaId: media[3].id!, frame: 1000, title: "War"),
        ])

        // When the state is exported as JSON and imported into the other library
        let json = try StateExport.encoder.encode(try library.state.export())
        _ = try other.state.apply(try StateExport.decoder.decode(StateExport.self, from: json))

        // Then the other library's book has them, on the items with the same contents
        let otherWar = try other.books.book(matching: "War")
        let otherMedia = try other.books.items(ofBook: otherWar.id!)
        let stored = try storedChapters(other, bookId: otherWar.id!)
        #expect(stored.map(\.2) == ["Peace", "War"])
        #expect(stored.map(\.1) == [0, 1000])
        #expect(stored.map { id in otherMedia.firstIndex { $0.id == id.0 } } == [0, 3])
        // and a book without chapters of its own is written without the field
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.components(separatedBy: "\"userChapters\"").count == 2)
    }

    @Test func aStateFileFromBeforeUserChaptersImportsAndLeavesThemAlone() throws {
        // Given a library whose book has chapters of its own, and a state file written before user chapters
        let library = try LibraryDatabase()
        _ = try importer(library).importPaths([try Fixtures.audiobookTree().path])
        let war = try library.books.book(matching: "War")
        let media = try library.books.items(ofBook: war.id!)
        try library.books.addUserChapter(UserChapterStart(mediaId: media[1].id!, frame: 10, title: "Mine"), toBook: war.id!)
        let old = """
            { "format": "abplayer-state", "version": 2, "exportedAt": "2025-01-01T00:00:00Z",
              "books": [ { "title": "War", "items": ["\(media[0].fingerprint)"], "finished": false, "bookmarks": [],
                           "position": { "item": "\(media[0].fingerprint)", "frame": 99, "updatedAt": "2025-01-01T00:00:00Z" } } ] }
            """

        // When it is imported
        let report = try library.state.apply(try StateExport.decoder.decode(StateExport.self, from: Data(old.utf8)))

        // Then its position is taken and the book's own chapters are kept
        #expect(report.matched == ["War"])
        #expect(try library.positions.ofBook(war.id!)?.frame == 99)
        #expect(try storedChapters(library, bookId: war.id!).map(\.2) == ["Mine"])
    }
}
