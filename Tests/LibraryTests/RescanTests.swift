import Foundation
import GRDB
import Library
import Testing
import TestSupport

@Suite struct RescanTests {
    @Test func aMovedBookFolderKeepsItsPositionBookmarksAndHistory() throws {
        // Given a book imported from its folder, with a position, a bookmark and a session
        let tree = try copyOfAudiobookTree("rescan")
        let library = try LibraryDatabase()
        _ = try importer(library).importPaths([tree.path])
        let book = try library.books.book(matching: "War & Peace")
        let media = try library.books.items(ofBook: book.id!)
        try library.positions.savePosition(bookId: book.id!, mediaId: media[2].id!, frame: 12345)
        try library.bookmarks.add(bookId: book.id!, mediaId: media[1].id!, frame: 777, kind: .user, note: "good bit")
        let session = try library.positions.startSession(bookId: book.id!, mediaId: media[0].id!, frame: 0, speed: 1)

        // When the book's folder is renamed and moved into another folder, then the library rescanned
        let moved = tree.appending(path: "Moved/War and Peace (renamed)")
        try FileManager.default.createDirectory(at: moved.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: tree.appending(path: "Tolstoy's \"War & Peace\""), to: moved)
        let report = try library.media.rescan()

        // Then every file is found at its new path, none missing, and everything else is kept
        #expect(report.moved.count == 4)
        #expect(report.missing.isEmpty)
        let listing = try library.catalog.bookListing(id: book.id!)
        #expect(listing.items.allSatisfy { $0.path.hasPrefix(moved.path + "/") && !$0.isMissing })
        #expect(listing.shortPaths == ["CD1/Chapter 9.mp3", "CD1/Chapter 10.mp3", "CD2/Chapter 1.mp3", "CD2/Chapter 2.mp3"])
        #expect(try library.positions.ofBook(book.id!)?.mediaId == media[2].id)
        #expect(try library.positions.ofBook(book.id!)?.frame == 12345)
        #expect(try library.bookmarks.all(ofBook: book.id!).map(\.note) == ["good bit"])
        #expect(try library.history.sessions(ofBook: book.id!).map(\.id) == [session])
        // and the new paths resolve to the files' real contents
        for item in listing.items { #expect(FileManager.default.fileExists(atPath: item.path)) }
    }

    @Test func aDeletedFileIsMarkedMissingNotDeleted() throws {
        // Given an imported book
        let tree = try copyOfAudiobookTree("missing")
        let library = try LibraryDatabase()
        _ = try importer(library).importPaths([tree.appending(path: "Мастер и Маргарита").path])
        let book = try library.books.book(matching: "Мастер")
        let victim = try library.books.items(ofBook: book.id!)[1]
        try library.positions.savePosition(bookId: book.id!, mediaId: victim.id!, frame: 5)

        // When one of its files is deleted and the library rescanned
        try FileManager.default.removeItem(atPath: victim.path)
        let report = try library.media.rescan()

        // Then it is reported and marked missing, but still in the book with its position
        #expect(report.missing == [victim.path])
        let listing = try library.catalog.bookListing(id: book.id!)
        #expect(listing.items.map(\.isMissing) == [false, true, false])
        #expect(try library.positions.ofBook(book.id!)?.mediaId == victim.id)

        // When it comes back, the next rescan says so
        try FileManager.default.copyItem(
            at: try Fixtures.audiobookTree().appending(path: "Мастер и Маргарита/" + (victim.path as NSString).lastPathComponent),
            to: URL(fileURLWithPath: victim.path))
        let again = try library.media.rescan()
        #expect(again.returned == [victim.path] && again.missing.isEmpty)
        #expect(try library.catalog.bookListing(id: book.id!).items.allSatisfy { !$0.isMissing })
    }
}
