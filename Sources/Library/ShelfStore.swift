import Foundation
import GRDB

/// A shelf in the tree, with its path and what it holds directly.
public struct ShelfListing: Sendable, Equatable, Codable {
    public let id: Int64
    public let parentId: Int64?
    /// "Fiction/Russian/Tolstoy".
    public let path: String
    public let depth: Int
    public let bookCount: Int
    public let itemCount: Int
}

/// What a forced delete removed.
public struct ShelfRemoval: Sendable, Equatable {
    public let shelves: Int
    public let books: Int
}

/// The shelf tree: shelves made, renamed, moved and deleted, and the tree listed with what each
/// shelf holds. Other stores that file books on shelves (moving a book, an import, a listing
/// by shelf) use its static helpers inside their own transactions.
public struct ShelfStore: Sendable {
    let writer: any DatabaseWriter

    /// Splits "A/B/C" into shelf names; empty components (leading, trailing, doubled slashes) are
    /// ignored.
    public static func shelfNames(_ path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }

    /// The id of the shelf at `path`, or nil.
    public func shelfID(path: String) throws -> Int64? {
        try writer.read { db in try Self.shelfID(db, names: Self.shelfNames(path)) }
    }

    static func shelfID(_ db: Database, names: [String]) throws -> Int64? {
        var parent: Int64?
        for name in names {
            let request = Shelf.filter(Shelf.Columns.name == name).filter(Shelf.Columns.parentId == parent)
            guard let shelf = try request.fetchOne(db) else { return nil }
            parent = shelf.id
        }
        return parent
    }

    /// Creates every missing shelf along `path` (like `mkdir -p`) and returns the last one's id.
    @discardableResult
    public func createShelves(path: String) throws -> Int64 {
        let names = Self.shelfNames(path)
        guard !names.isEmpty else { throw LibraryError.invalid("shelf path '\(path)' is empty") }
        return try writer.write { db in try Self.createShelves(db, names: names) }
    }

    static func createShelves(_ db: Database, names: [String]) throws -> Int64 {
        var parent: Int64?
        for name in names {
            if let existing = try Shelf.filter(Shelf.Columns.name == name).filter(Shelf.Columns.parentId == parent).fetchOne(db) {
                parent = existing.id
            } else {
                guard !name.trimmingCharacters(in: .whitespaces).isEmpty else {
                    throw LibraryError.invalid("a shelf name cannot be blank")
                }
                var shelf = Shelf(id: nil, parentId: parent, name: name, createdAt: Date())
                try shelf.insert(db)
                parent = shelf.id
            }
        }
        return parent!
    }

    /// Creates the shelf `path`; refused when it exists.
    @discardableResult
    public func createShelf(path: String) throws -> Int64 {
        let names = Self.shelfNames(path)
        guard let name = names.last else { throw LibraryError.invalid("shelf path '\(path)' is empty") }
        return try writer.write { db in
            let parent = names.count > 1 ? try Self.existingShelf(db, names: Array(names.dropLast())) : nil
            if try Shelf.filter(Shelf.Columns.name == name).filter(Shelf.Columns.parentId == parent).fetchCount(db) > 0 {
                throw LibraryError.invalid("shelf '\(path)' already exists")
            }
            var shelf = Shelf(id: nil, parentId: parent, name: name, createdAt: Date())
            try shelf.insert(db)
            return shelf.id!
        }
    }

    static func existingShelf(_ db: Database, names: [String]) throws -> Int64 {
        guard let id = try shelfID(db, names: names) else {
            throw LibraryError.notFound("no shelf '\(names.joined(separator: "/"))'")
        }
        return id
    }

    public func renameShelf(path: String, to newName: String) throws {
        guard !newName.contains("/"), !newName.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw LibraryError.invalid("'\(newName)' is not a shelf name (not blank, no '/')")
        }
        try writer.write { db in
            let id = try Self.existingShelf(db, names: Self.shelfNames(path))
            var shelf = try Shelf.fetchOne(db, key: id)!
            shelf.name = newName
            do { try shelf.update(db) } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                throw LibraryError.invalid("a shelf named '\(newName)' already exists beside '\(path)'")
            }
        }
    }

    /// Moves the shelf at `path` under `newParent` (nil or "" for the top level). A shelf cannot
    /// move into itself or one of its descendants.
    public func moveShelf(path: String, under newParent: String?) throws {
        try writer.write { db in
            let id = try Self.existingShelf(db, names: Self.shelfNames(path))
            let parentNames = newParent.map(Self.shelfNames) ?? []
            let parent = parentNames.isEmpty ? nil : try Self.existingShelf(db, names: parentNames)
            if let parent, try Self.subtreeIDs(db, of: id).contains(parent) {
                throw LibraryError.invalid("cannot move shelf '\(path)' into itself or a shelf inside it")
            }
            var shelf = try Shelf.fetchOne(db, key: id)!
            shelf.parentId = parent
            do { try shelf.update(db) } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                throw LibraryError.invalid("'\(newParent ?? "the top level")' already has a shelf named '\(shelf.name)'")
            }
        }
    }

    /// The shelf and every shelf below it.
    static func subtreeIDs(_ db: Database, of id: Int64) throws -> Set<Int64> {
        try Set(Int64.fetchAll(db, sql: """
            WITH RECURSIVE subtree(id) AS (
                SELECT id FROM shelf WHERE id = ?
                UNION ALL
                SELECT shelf.id FROM shelf JOIN subtree ON shelf.parentId = subtree.id
            ) SELECT id FROM subtree
            """, arguments: [id]))
    }

    /// Deletes the shelf at `path`. Refused when it holds shelves or books, unless `force`; a
    /// forced delete removes everything below and says how much.
    @discardableResult
    public func deleteShelf(path: String, force: Bool) throws -> ShelfRemoval {
        try writer.write { db in
            let id = try Self.existingShelf(db, names: Self.shelfNames(path))
            let shelves = try Self.subtreeIDs(db, of: id)
            let books = try Book.filter(shelves.contains(Book.Columns.shelfId)).fetchCount(db)
            if (shelves.count > 1 || books > 0) && !force {
                throw LibraryError.invalid("shelf '\(path)' is not empty (\(shelves.count - 1) shel\(shelves.count == 2 ? "f" : "ves"), \(books) book\(books == 1 ? "" : "s") inside); use --force to delete them too")
            }
            try Shelf.deleteOne(db, key: id)
            return ShelfRemoval(shelves: shelves.count, books: books)
        }
    }

    /// The common table `tree(id, parentId, path, depth, sortKey)`: every shelf with its path
    /// ("Fiction/Russian") and depth; `ORDER BY sortKey` is depth first in name order.
    static let shelfTreeTable = """
        WITH RECURSIVE tree(id, parentId, path, depth, sortKey) AS (
            SELECT id, parentId, name, 0, name FROM shelf WHERE parentId IS NULL
            UNION ALL
            SELECT shelf.id, shelf.parentId, tree.path || '/' || shelf.name, tree.depth + 1,
                   tree.sortKey || char(1) || shelf.name
            FROM shelf JOIN tree ON shelf.parentId = tree.id
        )
        """

    /// Every shelf, depth first in name order, with the path and the books and items it holds
    /// directly.
    public func shelfTree() throws -> [ShelfListing] {
        try writer.read { db in
            try Row.fetchAll(db, sql: """
                \(Self.shelfTreeTable),
                -- Counts only: summing durations would visit every media row (4x slower on a
                -- 200,000-item library); `books` gives durations per book.
                books AS (
                    SELECT book.shelfId, count(*) AS bookCount, total(items.n) AS itemCount
                    FROM book LEFT JOIN (SELECT bookId, count(*) AS n FROM bookItem GROUP BY bookId) items
                    ON items.bookId = book.id
                    GROUP BY book.shelfId
                )
                SELECT tree.id, tree.parentId, tree.path, tree.depth,
                       ifnull(books.bookCount, 0) AS bookCount, CAST(ifnull(books.itemCount, 0) AS INTEGER) AS itemCount
                FROM tree LEFT JOIN books ON books.shelfId = tree.id
                ORDER BY tree.sortKey
                """).map { row in
                ShelfListing(id: row["id"], parentId: row["parentId"], path: row["path"], depth: row["depth"],
                             bookCount: row["bookCount"], itemCount: row["itemCount"])
            }
        }
    }

    /// "A/B/C" for a shelf id.
    static func shelfPath(_ db: Database, id: Int64?) throws -> String? {
        guard let id else { return nil }
        return try String.fetchOne(db, sql: """
            WITH RECURSIVE up(id, parentId, path) AS (
                SELECT id, parentId, name FROM shelf WHERE id = ?
                UNION ALL
                SELECT shelf.id, shelf.parentId, shelf.name || '/' || up.path FROM shelf JOIN up ON shelf.id = up.parentId
            ) SELECT path FROM up WHERE parentId IS NULL
            """, arguments: [id])
    }
}
