import Foundation
import GRDB
import Library
import Testing
import TestSupport

@Suite struct ImportTests {
    @Test func importsTheTrickyTreeInPlayOrderWithTagsAndDurations() throws {
        // Given the tree of tagged files with tricky names, and an empty library
        let tree = try Fixtures.audiobookTree()
        let library = try LibraryDatabase()

        // When the tree's root is imported onto a shelf
        let report = try importer(library).importPaths([tree.path], shelf: "Fiction/Classics \"Old\"")

        // Then each folder is one book, the garbage file is skipped with a reason, the text file ignored
        #expect(report.books.count == 4)
        #expect(report.filesImported == Fixtures.audiobookTreeFiles.count)
        #expect(report.skipped.count == 1)
        #expect(report.skipped.first?.path.hasSuffix("Untagged Book/garbage.mp3") == true)
        #expect(report.skipped.first?.reason.isEmpty == false)

        let books = Dictionary(uniqueKeysWithValues: try library.catalog.bookListings().map { ($0.title, $0) })
        #expect(Set(books.keys) == ["War & Peace", "Мастер и Маргарита", "吾輩は猫である 🐱", "Untagged Book"])

        // Disc folders first, then the clean track tags within each disc
        let war = try #require(books["War & Peace"])
        #expect(war.shortPaths == ["CD1/Chapter 9.mp3", "CD1/Chapter 10.mp3", "CD2/Chapter 1.mp3", "CD2/Chapter 2.mp3"])
        #expect(war.author == "Leo Tolstoy")   // album artist before artist
        #expect(war.narrator == "Nobody's Voice")
        #expect(war.shelf == "Fiction/Classics \"Old\"")
        #expect(war.items.map(\.title) == ["I-9", "I-10", "II-1", "II-2"])

        // Clean track tags that disagree with the names win
        let master = try #require(books["Мастер и Маргарита"])
        #expect(master.fileNames == ["02 Глава.mp3", "03 Глава.mp3", "01 Глава.mp3"])
        #expect(master.author == "Михаил Булгаков")

        // Broken tags (all "1"): natural name order, 9 before 10
        let cat = try #require(books["吾輩は猫である 🐱"])
        #expect(cat.fileNames == ["Chapter 1.mp3", "Chapter 9.mp3", "Chapter 10.mp3"])
        #expect(cat.composer == "作曲家")

        // No album tag: the folder names the book; gapped tags: names decide
        let untagged = try #require(books["Untagged Book"])
        #expect(untagged.fileNames == ["Part 1.mp3", "Part 2 - b.mp3", "part 10.mp3"])
        #expect(untagged.author == nil)

        // Durations as the decoder measured them: one second per file
        for book in books.values {
            for item in book.items {
                let seconds = try #require(item.durationSeconds)
                #expect(abs(seconds - Double(Fixtures.audiobookTreeFileSeconds)) < 0.001, "\(item.path): \(seconds) s")
            }
            #expect(abs(book.durationSeconds - Double(book.items.count)) < 0.01)
            #expect(book.positionSeconds == nil && book.progress == 0)
        }
    }

    @Test func reimportingTheSameFilesAddsNothing() throws {
        // Given a library with the tree imported
        let tree = try Fixtures.audiobookTree()
        let library = try LibraryDatabase()
        _ = try importer(library).importPaths([tree.path])
        let before = try library.catalog.bookListings()

        // When the same folders are imported again, one of them by its own path
        let again = try importer(library).importPaths([tree.path, tree.appending(path: "Мастер и Маргарита").path])

        // Then no book or file is added, and the books are reported as existing
        #expect(again.filesImported == 0)
        #expect(again.books.allSatisfy { $0.existed })
        #expect(try library.catalog.bookListings() == before)
        let mediaCount = try library.writer.read { db in try Media.fetchCount(db) }
        #expect(mediaCount == Fixtures.audiobookTreeFiles.count)
    }

    @Test func looseFilesWithAnAlbumTagBecomeOneBookOnTheShelf() throws {
        // Given two files of one album named on the command line, and one unreadable file
        let tree = try Fixtures.audiobookTree()
        let library = try LibraryDatabase()
        let files = ["Мастер и Маргарита/03 Глава.mp3", "Мастер и Маргарита/02 Глава.mp3", "Untagged Book/garbage.mp3"]
            .map { tree.appending(path: $0).path }

        // When they are added straight to a shelf
        let report = try importer(library).importPaths(files, shelf: "Inbox")

        // Then one book named from the album tag holds them in track order; the bad file is skipped
        let books = try library.catalog.bookListings(shelf: "Inbox")
        #expect(books.map(\.title) == ["Мастер и Маргарита"])
        #expect(books.first?.fileNames == ["02 Глава.mp3", "03 Глава.mp3"])
        #expect(report.skipped.map { ($0.path as NSString).lastPathComponent } == ["garbage.mp3"])
    }

    @Test func editingABooksItemsKeepsItsPosition() throws {
        // Given an imported book with a saved position in its second item
        let tree = try Fixtures.audiobookTree()
        let library = try LibraryDatabase()
        _ = try importer(library).importPaths([tree.appending(path: "吾輩は猫である 🐱").path])
        let book = try library.books.book(matching: "猫")
        let media = try library.books.items(ofBook: book.id!)
        try library.positions.savePosition(bookId: book.id!, mediaId: media[1].id!, frame: 11025)

        // When the last item is moved first, then the first item removed, and the book renamed and moved
        try library.books.moveItem(ofBook: book.id!, from: 2, to: 0)
        try library.books.removeItems(fromBook: book.id!, mediaIds: [media[2].id!])
        try library.books.renameBook(book.id!, to: "I Am a Cat")
        try library.books.moveBook(book.id!, toShelf: "Japan/Meiji")

        // Then the order, the title, the shelf and the position (by media) are as edited
        let listing = try library.catalog.bookListing(id: book.id!)
        #expect(listing.fileNames == ["Chapter 1.mp3", "Chapter 9.mp3"])
        #expect(listing.title == "I Am a Cat")
        #expect(listing.shelf == "Japan/Meiji")
        #expect(try library.positions.ofBook(book.id!)?.mediaId == media[1].id!)
        #expect(listing.positionSeconds == 1.5)   // one 1 s item before it, then 11025 frames at 22.05 kHz
    }
}
