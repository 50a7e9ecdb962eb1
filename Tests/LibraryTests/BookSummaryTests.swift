import Foundation
import GRDB
import Library
import Testing

@Suite struct BookSummaryTests {
    @Test func theCatalogAgreesWithTheListingsAndTheShelfTree() throws {
        // Given 30 books of 3 ten-minute items; one resumed in its second item, one at the start
        // of its first, one finished, one with its place in a file that left the book
        let library = try LibraryDatabase()
        try library.insertSyntheticBooks(books: 30, itemsPerBook: 3, shelfFanout: 2)
        let listings = try library.bookListings()
        let second = listings[4], first = listings[7], done = listings[9], orphan = listings[11]
        try library.savePosition(bookId: second.id, mediaId: second.items[1].mediaId, frame: 44100 * 90)
        try library.savePosition(bookId: first.id, mediaId: first.items[0].mediaId, frame: 0)
        try library.markFinished(bookId: done.id)
        try library.savePosition(bookId: orphan.id, mediaId: orphan.items[2].mediaId, frame: 44100)
        try library.removeItems(fromBook: orphan.id, mediaIds: [orphan.items[2].mediaId])
        let inProgress = Set(try library.books(on: .inProgress).map(\.id))

        // When the summaries are read
        let catalog = try library.catalog()
        let summaries = Dictionary(uniqueKeysWithValues: catalog.books.map { ($0.id, $0) })

        // Then every book is there with the listing's length, place, progress and state
        let again = try library.bookListings()
        #expect(summaries.count == again.count)
        for listing in again {
            let summary = try #require(summaries[listing.id])
            #expect(summary.title == listing.title && summary.author == listing.author)
            #expect(abs(summary.durationSeconds - listing.durationSeconds) < 0.001, "\(listing.title)")
            #expect(summary.positionSeconds.map { $0.rounded() } == listing.positionSeconds.map { $0.rounded() }, "\(listing.title)")
            #expect(abs(summary.progress - listing.progress) < 0.0001, "\(listing.title)")
            #expect(summary.finished == listing.finished && summary.itemCount == listing.items.count)
        }
        // and the shelves are the tree, with the same counts
        #expect(catalog.shelves == (try library.shelfTree()))
        #expect(catalog.shelves.map(\.bookCount).reduce(0, +) == 30)
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
