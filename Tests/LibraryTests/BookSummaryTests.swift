import Foundation
import GRDB
import Library
import Testing

@Suite struct BookSummaryTests {
    @Test func theCatalogAgreesWithTheListingsAndTheShelfTree() throws {
        // Given 30 books of 3 ten-minute items; one resumed in its second item, one at the start
        // of its first, one finished, one with its place in a file that left the book
        let library = try LibraryDatabase()
        try library.books.insertSyntheticBooks(books: 30, itemsPerBook: 3, shelfFanout: 2)
        let listings = try library.catalog.bookListings()
        let second = listings[4], first = listings[7], done = listings[9], orphan = listings[11]
        try library.positions.savePosition(bookId: second.id, mediaId: second.items[1].mediaId, frame: 44100 * 90)
        try library.positions.savePosition(bookId: first.id, mediaId: first.items[0].mediaId, frame: 0)
        try library.positions.markFinished(bookId: done.id)
        try library.positions.savePosition(bookId: orphan.id, mediaId: orphan.items[2].mediaId, frame: 44100)
        try library.books.removeItems(fromBook: orphan.id, mediaIds: [orphan.items[2].mediaId])
        let inProgress = Set(try library.catalog.books(on: .inProgress).map(\.id))

        // When the summaries are read
        let catalog = try library.catalog.snapshot()
        let summaries = Dictionary(uniqueKeysWithValues: catalog.books.map { ($0.id, $0) })
        let lengths = try library.catalog.bookLengths(of: nil)

        // Then every book is there with the listing's length, place, progress and state
        let again = try library.catalog.bookListings()
        #expect(summaries.count == again.count)
        for listing in again {
            let summary = try #require(summaries[listing.id])
            #expect(summary.title == listing.title && summary.author == listing.author)
            #expect(abs((lengths[listing.id] ?? -1) - listing.durationSeconds) < 0.001, "\(listing.title)")
            // (a summary carries the length of a book with a place only: its progress needs it)
            #expect((summary.durationSeconds != nil) == (summary.positionSeconds != nil), "\(listing.title)")
            if let known = summary.durationSeconds { #expect(abs(known - listing.durationSeconds) < 0.001) }
            #expect(summary.positionSeconds.map { $0.rounded() } == listing.positionSeconds.map { $0.rounded() }, "\(listing.title)")
            #expect(abs(summary.progress - listing.progress) < 0.0001, "\(listing.title)")
            #expect(summary.finished == listing.finished)
        }
        // and the shelves are the tree
        #expect(catalog.shelves.map { "\($0.id) \($0.parentId ?? 0) \($0.path) \($0.depth)" }
                == (try library.shelves.shelfTree()).map { "\($0.id) \($0.parentId ?? 0) \($0.path) \($0.depth)" })
        // and the lengths of some books are theirs alone; a book without items is 0 long
        let empty = try library.books.createBook(title: "Empty")
        #expect(try library.catalog.bookLengths(of: [second.id, empty]) == [second.id: 1800, empty: 0])
        // and the resumed book is 600 + 90 s in, in progress; the one at 0:00 is not (the smart
        // shelf's rule), though it has a place
        #expect(summaries[second.id]?.positionSeconds == 690)
        #expect(summaries[second.id]?.isInProgress == true && summaries[first.id]?.isInProgress == false)
        #expect(summaries[first.id]?.positionSeconds == 0 && summaries[first.id]?.lastListened != nil)
        #expect(summaries[done.id]?.isInProgress == false && summaries[done.id]?.progress == 1)
        #expect(summaries[orphan.id]?.positionSeconds == nil)
        // and what is in progress is what the smart shelf says (which also counts a place in a
        // file that left the book: no place in the book can be shown for it)
        #expect(Set(summaries.values.filter(\.isInProgress).map(\.id)) == inProgress.subtracting([orphan.id]))
        #expect(inProgress.contains(second.id))
        #expect(summaries[listings[0].id]?.isInProgress == false)
    }
}
