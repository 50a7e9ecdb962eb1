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
    /// Seconds into the book where the saved position is; nil when never started (or when the
    /// saved place is in a file no longer part of the book).
    public let positionSeconds: Double?
    public let finished: Bool
    /// When the place was last saved: the most recently listened to first.
    public let lastListened: Date?

    public init(id: Int64, shelfId: Int64?, title: String, author: String?, narrator: String?, seriesNumber: Double?,
                durationSeconds: Double, positionSeconds: Double?, finished: Bool, lastListened: Date? = nil) {
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

    /// 0...1: finished is full, as in `BookListing.progress`.
    public var progress: Double {
        finished ? 1 : durationSeconds > 0 ? min(1, max(0, (positionSeconds ?? 0) / durationSeconds)) : 0
    }
}

extension LibraryDatabase {
    /// Every book, unordered: lengths summed over all items in one pass, the saved place added up
    /// from the items before it through the (bookId, position) index.
    public func bookSummaries() throws -> [BookSummary] {
        try writer.read { db in
            try Row.fetchAll(db, sql: """
                WITH lengths AS (
                    SELECT bookItem.bookId, total(ifnull(media.durationFrames, 0) * 1.0 / media.sampleRate) AS seconds
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
                       book.finishedAt IS NOT NULL AS finished, ifnull(lengths.seconds, 0) AS duration,
                       places.seconds AS place, places.updatedAt
                FROM book
                LEFT JOIN lengths ON lengths.bookId = book.id
                LEFT JOIN places ON places.bookId = book.id
                """).map { row in
                // By index, in the SELECT's order: 10,000 rows looked up by name cost more than
                // the reading itself.
                BookSummary(id: row[0], shelfId: row[1], title: row[2], author: row[3], narrator: row[4], seriesNumber: row[5],
                            durationSeconds: row[7], positionSeconds: row[8], finished: row[6],
                            lastListened: (row[9] as String?).flatMap(StoredDate.date(fromText:)))
            }
        }
    }
}
