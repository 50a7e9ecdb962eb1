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

extension LibraryDatabase {
    /// Finds a book by id ("12" or "#12") or by title: an exact (case-insensitive) title match,
    /// else the only title containing `reference`.
    public func book(matching reference: String) throws -> Book {
        try writer.read { db in try Self.book(db, matching: reference) }
    }

    /// A new book with no items and no shelf (`addFiles` fills it); returns its id.
    public func createBook(title: String) throws -> Int64 {
        try writer.write { db in
            var book = Book(title: title, addedAt: Date())
            try book.insert(db)
            return book.id!
        }
    }

    static func book(_ db: Database, matching reference: String) throws -> Book {
        let digits = reference.hasPrefix("#") ? String(reference.dropFirst()) : reference
        if let id = Int64(digits), let book = try Book.fetchOne(db, key: id) { return book }
        let title = Book.Columns.title.lowercased
        let exact = try Book.filter(title == reference.lowercased()).fetchAll(db)
        if exact.count == 1 { return exact[0] }
        let partial = try Book.filter(title.like("%\(escapeLike(reference.lowercased()))%", escape: "\\"))
            .order(Book.Columns.title).fetchAll(db)
        switch partial.count {
        case 1: return partial[0]
        case 0: throw LibraryError.notFound("no book matches '\(reference)'")
        default:
            let names = partial.prefix(5).map { "#\($0.id!) \($0.title)" }.joined(separator: ", ")
            throw LibraryError.invalid("'\(reference)' matches \(partial.count) books (\(names)); use the id")
        }
    }

    /// The book's media in play order.
    public func items(ofBook bookId: Int64) throws -> [Media] {
        try writer.read { db in try Self.items(db, bookId: bookId) }
    }

    static func items(_ db: Database, bookId: Int64) throws -> [Media] {
        try Media.fetchAll(db, sql: """
            SELECT media.* FROM bookItem JOIN media ON media.id = bookItem.mediaId
            WHERE bookItem.bookId = ? ORDER BY bookItem.position
            """, arguments: [bookId])
    }

    /// Every book (or those on `shelf` and below), in shelf path then title order.
    /// Whether the library holds no book (one row looked at, not every book listed).
    public var hasNoBooks: Bool {
        get throws { try writer.read { db in try !Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM book)")! } }
    }

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
        let media = try items(db, bookId: book.id!)
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

    // MARK: Editing

    public func renameBook(_ bookId: Int64, to title: String) throws {
        try writer.write { db in
            guard var book = try Book.fetchOne(db, key: bookId) else { throw LibraryError.notFound("no book #\(bookId)") }
            book.title = title
            try book.update(db)
        }
    }

    /// Moves a book to the shelf at `shelf` (created if missing), or to the top level.
    public func moveBook(_ bookId: Int64, toShelf shelf: String?) throws {
        try writer.write { db in
            guard var book = try Book.fetchOne(db, key: bookId) else { throw LibraryError.notFound("no book #\(bookId)") }
            let names = shelf.map(ShelfStore.shelfNames) ?? []
            book.shelfId = names.isEmpty ? nil : try ShelfStore.createShelves(db, names: names)
            try book.update(db)
        }
    }

    public func deleteBook(_ bookId: Int64) throws {
        _ = try writer.write { db in try Book.deleteOne(db, key: bookId) }
    }

    /// Puts the book's items in the order given by `mediaIds` (a permutation of its items).
    public func reorderItems(ofBook bookId: Int64, mediaIds: [Int64]) throws {
        try writer.write { db in
            let current = try Self.items(db, bookId: bookId).map { $0.id! }
            guard Set(current) == Set(mediaIds), current.count == mediaIds.count else {
                throw LibraryError.invalid("a new order must list each of the book's \(current.count) items once")
            }
            try Self.replaceItems(db, bookId: bookId, mediaIds: mediaIds)
        }
    }

    /// Moves the item at `from` (0-based) to `to`.
    public func moveItem(ofBook bookId: Int64, from: Int, to: Int) throws {
        var order = try items(ofBook: bookId).map { $0.id! }
        guard order.indices.contains(from), order.indices.contains(to) else {
            throw LibraryError.invalid("item numbers run from 1 to \(order.count)")
        }
        order.insert(order.remove(at: from), at: to)
        try reorderItems(ofBook: bookId, mediaIds: order)
    }

    /// Appends media to a book (those already in it are left where they are).
    public func addItems(toBook bookId: Int64, mediaIds: [Int64]) throws {
        try writer.write { db in
            let current = try Self.items(db, bookId: bookId).map { $0.id! }
            let added = mediaIds.filter { !current.contains($0) }
            try Self.replaceItems(db, bookId: bookId, mediaIds: current + added)
        }
    }

    /// Removes items from a book; the media stay in the library (history keeps pointing at them).
    public func removeItems(fromBook bookId: Int64, mediaIds: [Int64]) throws {
        try writer.write { db in
            let current = try Self.items(db, bookId: bookId).map { $0.id! }
            try Self.replaceItems(db, bookId: bookId, mediaIds: current.filter { !mediaIds.contains($0) })
        }
    }

    /// Rewrites the book's item rows. Positions and bookmarks refer to media, so they survive.
    static func replaceItems(_ db: Database, bookId: Int64, mediaIds: [Int64]) throws {
        try db.cachedStatement(sql: "DELETE FROM bookItem WHERE bookId = ?").execute(arguments: [bookId])
        let insert = try db.cachedStatement(sql: "INSERT INTO bookItem (bookId, mediaId, position) VALUES (?, ?, ?)")
        for (index, mediaId) in mediaIds.enumerated() {
            try insert.execute(arguments: [bookId, mediaId, index])
        }
    }

    // MARK: Settings

    /// The book's settings: its own where it has them, the listener's defaults (`set speed 1.3`)
    /// where it has none.
    public func settings(ofBook bookId: Int64) throws -> BookSettings {
        try writer.read { db in
            var settings = try BookSettings.fetchOne(db, key: bookId) ?? BookSettings(bookId: bookId)
            settings.defaults = BookSettings.Defaults(try PlayerPreferences.fetchOne(db, key: 1) ?? PlayerPreferences())
            return settings
        }
    }

    /// Saves a book's settings; the database's CHECKs refuse values out of range.
    public func saveSettings(_ settings: BookSettings) throws {
        do {
            try writer.write { db in try settings.save(db) }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            throw LibraryError.invalid("setting out of range (volume 0–150 %, speed 0.5–4, skip > 0 s, sleep timer > 0 s)")
        }
    }
}
