import Foundation
import GRDB

/// A book as `abplayer books` shows it: where it is, what it is, how far the listener got, and
/// its items in play order.
public struct BookListing: Sendable, Equatable, Codable {
    public struct Item: Sendable, Equatable, Codable {
        public let mediaId: Int64
        public let title: String
        public let path: String
        public let durationSeconds: Double?
        public let isMissing: Bool
    }

    public let id: Int64
    public let shelf: String?
    public let title: String
    public let author: String?
    public let narrator: String?
    public let composer: String?
    public let durationSeconds: Double
    /// Seconds into the book where the saved position is; nil when never started.
    public let positionSeconds: Double?
    /// 0...1.
    public let progress: Double
    public let finished: Bool
    public let items: [Item]
    public var subtitle: String? = nil
    public var series: String? = nil
    /// Its place in the series: books of one shelf are listed in this order, then by title.
    public var seriesNumber: Double? = nil
    public var year: Int? = nil
    public var description: String? = nil
    /// The cover image file beside the audio, when one was found at import.
    public var coverPath: String? = nil
}

/// The library as views list it: books with their places and items, shelf by shelf or
/// searched, the browser's catalog and the lengths it reads for the books on screen, tag
/// values, and the smart shelves. Reads only.
public struct CatalogStore: Sendable {
    let writer: any DatabaseWriter

    /// Every book (or those on `shelf` and below), in shelf path then title order.
    public func bookListings(shelf: String? = nil) throws -> [BookListing] {
        try writer.read { db in
            var books = try Book.order(Book.Columns.title.collating(.localizedCaseInsensitiveCompare)).fetchAll(db)
            if let shelf {
                let id = try ShelfStore.existingShelf(db, names: ShelfStore.shelfNames(shelf))
                let ids = try ShelfStore.subtreeIDs(db, of: id)
                books = books.filter { $0.shelfId.map(ids.contains) ?? false }
            }
            // A series shelf lists its books in series order; unnumbered books after the numbered.
            return try books.map { try Self.listing(db, book: $0) }
                .sorted { ($0.shelf ?? "", $0.seriesNumber ?? .infinity, $0.title) < ($1.shelf ?? "", $1.seriesNumber ?? .infinity, $1.title) }
        }
    }

    public func bookListing(id: Int64) throws -> BookListing {
        try writer.read { db in
            guard let book = try Book.fetchOne(db, key: id) else { throw LibraryError.notFound("no book #\(id)") }
            return try Self.listing(db, book: book)
        }
    }

    static func listing(_ db: Database, book: Book) throws -> BookListing {
        let media = try BookStore.items(db, bookId: book.id!)
        let total = media.reduce(0) { $0 + ($1.durationSeconds ?? 0) }
        var positionSeconds: Double?
        if let position = try Position.fetchOne(db, key: book.id!),
           let index = media.firstIndex(where: { $0.id == position.mediaId }) {
            positionSeconds = media[..<index].reduce(0) { $0 + ($1.durationSeconds ?? 0) }
                + Double(position.frame) / Double(media[index].sampleRate)
        }
        let progress = book.finishedAt != nil ? 1 : total > 0 ? min(1, (positionSeconds ?? 0) / total) : 0
        var listing = BookListing(
            id: book.id!, shelf: try ShelfStore.shelfPath(db, id: book.shelfId), title: book.title, author: book.author,
            narrator: book.narrator, composer: book.composer, durationSeconds: total, positionSeconds: positionSeconds,
            progress: progress, finished: book.finishedAt != nil,
            items: media.map {
                BookListing.Item(mediaId: $0.id!, title: $0.displayTitle, path: $0.path,
                                 durationSeconds: $0.durationSeconds, isMissing: $0.isMissing)
            })
        listing.subtitle = book.subtitle
        listing.series = book.series
        listing.seriesNumber = book.seriesNumber
        listing.year = book.year
        listing.description = book.bookDescription
        listing.coverPath = book.coverPath
        return listing
    }
}
