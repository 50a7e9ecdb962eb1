public import Foundation
import GRDB

/// A book as a browser lists it: what it is and how far the listener got. No items: a
/// `BookListing` reads each book's media and place with queries of its own (three per book),
/// which on a 10,000-book library takes seconds; summaries are one query for every book.
public struct BookSummary: Sendable, Equatable {
    public let id: Int64
    public let shelfId: Int64?
    public let title: String
    public let author: String?
    public let narrator: String?
    public let seriesNumber: Double?
    /// The sum of its items' lengths (unknown lengths count as 0, as in `BookListing`), read
    /// only for a book with a saved place (its progress needs it): every other book's is
    /// `bookLengths(of:)`'s, read for the books on screen.
    public let durationSeconds: Double?
    /// Seconds into the book where the saved position is; nil when never started (or when the
    /// saved place is in a file no longer part of the book).
    public let positionSeconds: Double?
    public let finished: Bool
    /// When the place was last saved: the most recently listened to first.
    public let lastListened: Date?

    public init(id: Int64, shelfId: Int64?, title: String, author: String?, narrator: String?, seriesNumber: Double?,
                durationSeconds: Double?, positionSeconds: Double?, finished: Bool, lastListened: Date? = nil) {
        self.id = id
        self.shelfId = shelfId
        self.title = title
        self.author = author
        self.narrator = narrator
        self.seriesNumber = seriesNumber
        self.durationSeconds = durationSeconds
        self.positionSeconds = positionSeconds
        self.finished = finished
        self.lastListened = lastListened
    }

    /// Started (past its very start) and not finished: the smart shelf `in-progress`'s rule.
    public var isInProgress: Bool { (positionSeconds ?? 0) > 0 && !finished }

    /// 0...1: finished is full, never started empty, as in `BookListing.progress`.
    public var progress: Double {
        if finished { return 1 }
        guard let positionSeconds, let durationSeconds, durationSeconds > 0 else { return 0 }
        return min(1, max(0, positionSeconds / durationSeconds))
    }
}

/// The whole library for a browser, read in one transaction (one state of it): the shelf tree
/// and a summary of every book.
public struct LibraryCatalog: Sendable, Equatable {
    /// A shelf in the tree, without counts (a browser counts its books itself).
    public struct Shelf: Sendable, Equatable {
        public let id: Int64
        public let parentId: Int64?
        /// "Fiction/Russian/Tolstoy".
        public let path: String
        public let depth: Int

        public init(id: Int64, parentId: Int64?, path: String, depth: Int) {
            self.id = id
            self.parentId = parentId
            self.path = path
            self.depth = depth
        }
    }

    /// Depth first, in name order, as `ShelfStore.shelfTree()` lists them.
    public let shelves: [Shelf]
    /// Unordered.
    public let books: [BookSummary]
}

extension CatalogStore {
    /// Two queries, neither of which reads every item: the shelf tree, and the books with their
    /// places. Summing every book's length means reading every media row (40–60 ms for
    /// 200,000 items here, most of a browser's first draw): `bookLengths(of:)` reads those on
    /// screen instead.
    public func snapshot() throws -> LibraryCatalog {
        try writer.read { db in
            let shelves = try Row.fetchAll(db, sql: """
                \(ShelfStore.shelfTreeTable)
                SELECT id, parentId, path, depth FROM tree ORDER BY sortKey
                """).map { LibraryCatalog.Shelf(id: $0[0], parentId: $0[1], path: $0[2], depth: $0[3]) }
            return LibraryCatalog(shelves: shelves, books: try Self.bookSummaries(db))
        }
    }

    /// Every book, with the place and length of those that have a place: each added up from
    /// that book's items through the (bookId, position) index.
    static func bookSummaries(_ db: Database) throws -> [BookSummary] {
        let rows = try Row.fetchCursor(db, sql: """
            WITH places AS (
                SELECT position.bookId, position.updatedAt,
                       (SELECT total(ifnull(before.durationFrames, 0) * 1.0 / before.sampleRate)
                        FROM bookItem earlier JOIN media before ON before.id = earlier.mediaId
                        WHERE earlier.bookId = position.bookId AND earlier.position < here.position)
                       + position.frame * 1.0 / media.sampleRate AS seconds,
                       (SELECT total(ifnull(item.durationFrames, 0) * 1.0 / item.sampleRate)
                        FROM bookItem every JOIN media item ON item.id = every.mediaId
                        WHERE every.bookId = position.bookId) AS length
                -- CROSS: from the few positions to their items; left to itself SQLite
                -- scanned every item (200,000 on the benchmark's library) for positions.
                FROM position
                CROSS JOIN bookItem here ON here.bookId = position.bookId AND here.mediaId = position.mediaId
                JOIN media ON media.id = position.mediaId
            )
            SELECT book.id, book.shelfId, book.title, book.author, book.narrator, book.seriesNumber,
                   book.finishedAt IS NOT NULL, places.length, places.seconds, places.updatedAt
            FROM book LEFT JOIN places ON places.bookId = book.id
            """)
        var books: [BookSummary] = []
        // Through a cursor, by column number: 10,000 rows copied into `Row`s and looked up by
        // name cost more than reading them.
        while let row = try rows.next() {
            books.append(BookSummary(id: row[0], shelfId: row[1], title: row[2], author: row[3], narrator: row[4],
                                     seriesNumber: row[5], durationSeconds: row[7], positionSeconds: row[8], finished: row[6],
                                     lastListened: (row[9] as String?).flatMap(StoredDate.date(fromText:))))
        }
        return books
    }

    /// The lengths of `books` (every book when nil), by id: the sum of each one's items'.
    public func bookLengths(of books: [Int64]?) throws -> [Int64: Double] {
        try writer.read { db in
            let filter: SQL = books.map { "WHERE bookItem.bookId IN \($0)" } ?? ""
            let request: SQLRequest<Row> = """
                SELECT bookItem.bookId, total(ifnull(media.durationFrames, 0) * 1.0 / media.sampleRate)
                FROM bookItem JOIN media ON media.id = bookItem.mediaId
                \(filter)
                GROUP BY bookItem.bookId
                """
            var lengths: [Int64: Double] = [:]
            let rows = try request.fetchCursor(db)
            while let row = try rows.next() { lengths[row[0]] = row[1] }
            // A book without items is 0 long, not unknown.
            for id in books ?? [] where lengths[id] == nil { lengths[id] = 0 }
            return lengths
        }
    }
}
