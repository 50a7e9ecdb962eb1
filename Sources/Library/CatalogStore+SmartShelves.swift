import Foundation
import GRDB

/// The smart shelves: lists the library keeps by itself from positions and history.
public enum SmartShelf: String, Sendable, CaseIterable, Codable {
    case inProgress = "in-progress"
    case recentlyPlayed = "recently-played"
    case finished
    case notStarted = "not-started"
    case mostPlayed = "most-played"
}

extension CatalogStore {
    /// The books on a smart shelf, in the order that shelf means.
    public func books(on shelf: SmartShelf, limit: Int = 50) throws -> [Book] {
        let sql: String
        switch shelf {
        case .inProgress:
            sql = """
                SELECT book.* FROM book JOIN position ON position.bookId = book.id
                WHERE book.finishedAt IS NULL AND (position.frame > 0 OR position.mediaId !=
                    (SELECT mediaId FROM bookItem WHERE bookId = book.id ORDER BY position LIMIT 1))
                ORDER BY position.updatedAt DESC LIMIT ?
                """
        case .recentlyPlayed:
            sql = """
                SELECT book.* FROM book JOIN (SELECT bookId, max(endedAt) AS last FROM listeningSession GROUP BY bookId) s
                ON s.bookId = book.id ORDER BY s.last DESC LIMIT ?
                """
        case .finished:
            sql = "SELECT * FROM book WHERE finishedAt IS NOT NULL ORDER BY finishedAt DESC LIMIT ?"
        case .notStarted:
            sql = """
                SELECT * FROM book WHERE finishedAt IS NULL AND id NOT IN (SELECT bookId FROM listeningSession)
                AND id NOT IN (SELECT bookId FROM position WHERE frame > 0) ORDER BY addedAt DESC LIMIT ?
                """
        case .mostPlayed:
            sql = """
                SELECT book.* FROM book JOIN (SELECT bookId, sum(wallSeconds) AS listened FROM listeningSession GROUP BY bookId) s
                ON s.bookId = book.id WHERE s.listened > 0 ORDER BY s.listened DESC LIMIT ?
                """
        }
        return try writer.read { db in try Book.fetchAll(db, sql: sql, arguments: [limit]) }
    }
}
