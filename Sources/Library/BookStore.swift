import Foundation
import GRDB

/// The books themselves: found, made, renamed, moved and deleted, and their items (the media in
/// play order) edited. Other stores read a book's items inside their own transactions through
/// `items(_:bookId:)`, and rewrite them through `replaceItems`.
public struct BookStore: Sendable {
    let writer: any DatabaseWriter
    /// The database's own files, which `addFiles` refuses (`LibraryFiles`).
    let ownFiles: LibraryFiles?

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
        let partial = try Book.filter(title.like("%\(CatalogStore.escapeLike(reference.lowercased()))%", escape: "\\"))
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

    /// Whether the library holds no book (one row looked at, not every book listed).
    public var hasNoBooks: Bool {
        get throws { try writer.read { db in try !Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM book)")! } }
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
}
