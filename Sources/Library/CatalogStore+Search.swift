import Foundation
import GRDB

extension CatalogStore {
    /// Books whose title, author or narrator contains `text`, by title. Filtered in SQL so only
    /// the matches get their listing built (the REPL's `find` on a 10,000-book library). LIKE
    /// ignores case for ASCII letters only (SQLite's rule).
    public func bookListings(containing text: String) throws -> [BookListing] {
        try writer.read { db in
            let pattern = "%\(Self.escapeLike(text))%"
            let books = try Book.fetchAll(db, sql: """
                SELECT * FROM book
                WHERE title LIKE ?1 ESCAPE '\\' OR author LIKE ?1 ESCAPE '\\' OR narrator LIKE ?1 ESCAPE '\\'
                ORDER BY title
                """, arguments: [pattern])
            return try books.map { try Self.listing(db, book: $0) }
        }
    }

    /// The books directly on the shelf at `path` ("" or nil: on no shelf), not those below it.
    public func bookListings(directlyOn path: String?) throws -> [BookListing] {
        try writer.read { db in
            let names = ShelfStore.shelfNames(path ?? "")
            let shelfId = names.isEmpty ? nil : try ShelfStore.existingShelf(db, names: names)
            let books = try Book.filter(Book.Columns.shelfId == shelfId)
                .order(Book.Columns.title.collating(.localizedCaseInsensitiveCompare)).fetchAll(db)
            return try books.map { try Self.listing(db, book: $0) }
        }
    }

    /// Every book's title, for completion: no listing built.
    public func bookTitles() throws -> [String] {
        try writer.read { db in try String.fetchAll(db, sql: "SELECT title FROM book ORDER BY title") }
    }
}
