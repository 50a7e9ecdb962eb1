public import Foundation
import GRDB

/// A book as a browser lists it: what it is, how long, how far the listener got. No items: a
/// `BookListing` reads each book's media and place with queries of its own (three per book),
/// which on a 10,000-book library takes seconds; summaries are one query for every book.
public struct BookSummary: Sendable, Equatable {
    public let id: Int64
    public let shelfId: Int64?
    public let title: String
    public let author: String?
    public let narrator: String?
    public let seriesNumber: Double?
    /// The sum of its items' lengths (unknown lengths count as 0, as in `BookListing`).
    public let durationSeconds: Double
    public let itemCount: Int
    /// Seconds into the book where the saved position is; nil when never started (or when the
    /// saved place is in a file no longer part of the book).
    public let positionSeconds: Double?
    public let finished: Bool
    /// When the place was last saved: the most recently listened to first.
    public let lastListened: Date?

    public init(id: Int64, shelfId: Int64?, title: String, author: String?, narrator: String?, seriesNumber: Double?,
                durationSeconds: Double, itemCount: Int = 1, positionSeconds: Double?, finished: Bool, lastListened: Date? = nil) {
        self.id = id
        self.shelfId = shelfId
        self.title = title
        self.author = author
        self.narrator = narrator
        self.seriesNumber = seriesNumber
        self.durationSeconds = durationSeconds
        self.itemCount = itemCount
        self.positionSeconds = positionSeconds
        self.finished = finished
        self.lastListened = lastListened
    }

    /// Started (past its very start) and not finished: the smart shelf `in-progress`'s rule.
    public var isInProgress: Bool { (positionSeconds ?? 0) > 0 && !finished }

    /// 0...1: finished is full, as in `BookListing.progress`.
    public var progress: Double {
        finished ? 1 : durationSeconds > 0 ? min(1, max(0, (positionSeconds ?? 0) / durationSeconds)) : 0
    }
}

/// The whole library for a browser, read in one transaction (one state of it): the shelf tree
/// and a summary of every book.
public struct LibraryCatalog: Sendable, Equatable {
    /// As `shelfTree()` lists them: depth first, in name order, with what each holds directly.
    public let shelves: [ShelfListing]
    /// Unordered.
    public let books: [BookSummary]
}

extension LibraryDatabase {
    /// Two queries: the shelf tree without its counts (`shelfTree()` counts items with a pass
    /// over every item of its own; here they come with the books), and the books.
    public func catalog() throws -> LibraryCatalog {
        try writer.read { db in
            let books = try Self.bookSummaries(db)
            var held: [Int64: (books: Int, items: Int)] = [:]
            for book in books {
                guard let shelf = book.shelfId else { continue }
                held[shelf, default: (0, 0)].books += 1
                held[shelf, default: (0, 0)].items += book.itemCount
            }
            let shelves = try Row.fetchAll(db, sql: """
                WITH RECURSIVE tree(id, parentId, path, depth, sortKey) AS (
                    SELECT id, parentId, name, 0, name FROM shelf WHERE parentId IS NULL
                    UNION ALL
                    SELECT shelf.id, shelf.parentId, tree.path || '/' || shelf.name, tree.depth + 1,
                           tree.sortKey || char(1) || shelf.name
                    FROM shelf JOIN tree ON shelf.parentId = tree.id
                )
                SELECT id, parentId, path, depth FROM tree ORDER BY sortKey
                """).map { row in
                let id: Int64 = row[0]
                return ShelfListing(id: id, parentId: row[1], path: row[2], depth: row[3],
                                    bookCount: held[id]?.books ?? 0, itemCount: held[id]?.items ?? 0)
            }
            return LibraryCatalog(shelves: shelves, books: books)
        }
    }

    /// Every book: lengths summed over all items in one pass (the most of the cost: every media
    /// row is read), the saved place added up from the items before it through the
    /// (bookId, position) index.
    static func bookSummaries(_ db: Database) throws -> [BookSummary] {
        let rows = try Row.fetchCursor(db, sql: """
            WITH lengths AS (
                SELECT bookItem.bookId, total(ifnull(media.durationFrames, 0) * 1.0 / media.sampleRate) AS seconds,
                       count(*) AS items
                FROM bookItem JOIN media ON media.id = bookItem.mediaId
                GROUP BY bookItem.bookId
            ),
            places AS (
                SELECT position.bookId, position.updatedAt,
                       (SELECT total(ifnull(before.durationFrames, 0) * 1.0 / before.sampleRate)
                        FROM bookItem earlier JOIN media before ON before.id = earlier.mediaId
                        WHERE earlier.bookId = position.bookId AND earlier.position < here.position)
                       + position.frame * 1.0 / media.sampleRate AS seconds
                -- CROSS: from the few positions to their items; left to itself SQLite
                -- scanned every item (200,000 on the benchmark's library) for positions.
                FROM position
                CROSS JOIN bookItem here ON here.bookId = position.bookId AND here.mediaId = position.mediaId
                JOIN media ON media.id = position.mediaId
            )
            SELECT book.id, book.shelfId, book.title, book.author, book.narrator, book.seriesNumber,
                   book.finishedAt IS NOT NULL, ifnull(lengths.seconds, 0), ifnull(lengths.items, 0),
                   places.seconds, places.updatedAt
            FROM book
            LEFT JOIN lengths ON lengths.bookId = book.id
            LEFT JOIN places ON places.bookId = book.id
            """)
        var books: [BookSummary] = []
        // Through a cursor, by column number: 10,000 rows copied into `Row`s and looked up by
        // name cost more than reading them.
        while let row = try rows.next() {
            books.append(BookSummary(id: row[0], shelfId: row[1], title: row[2], author: row[3], narrator: row[4],
                                     seriesNumber: row[5], durationSeconds: row[7], itemCount: row[8], positionSeconds: row[9],
                                     finished: row[6], lastListened: (row[10] as String?).flatMap(StoredDate.date(fromText:))))
        }
        return books
    }
}
