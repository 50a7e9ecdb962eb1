public import Foundation
import GRDB

public struct DailyListening: Sendable, Equatable, Codable {
    /// "2026-11-21", in UTC.
    public let day: String
    public let wallSeconds: Double
}

public struct BookListening: Sendable, Equatable, Codable {
    public let bookId: Int64
    public let title: String
    public let wallSeconds: Double
    public let sessions: Int
    public let lastPlayed: Date?
}

public struct ItemPlays: Sendable, Equatable, Codable {
    public let mediaId: Int64
    public let title: String
    public let playCount: Int
    public let lastPlayed: Date
}

/// What was listened to: time per day and per book, the listening sessions, plays of each
/// item, and the silence skipped (`HistoryStore+SkipSilence`). Reads only, but for the
/// silence a session skipped.
public struct HistoryStore: Sendable {
    let writer: any DatabaseWriter

    /// Wall time listened per day (UTC), oldest first, for the last `days` days.
    public func listeningPerDay(days: Int = 30) throws -> [DailyListening] {
        try writer.read { db in
            try Row.fetchAll(db, sql: """
                SELECT date(startedAt) AS day, sum(wallSeconds) AS seconds FROM listeningSession
                WHERE startedAt >= datetime('now', ?) GROUP BY day ORDER BY day
                """, arguments: ["-\(days) days"]).map { DailyListening(day: $0["day"], wallSeconds: $0["seconds"]) }
        }
    }

    /// Wall time listened per book, most first.
    public func listeningPerBook() throws -> [BookListening] {
        try writer.read { db in
            try Row.fetchAll(db, sql: """
                SELECT book.id, book.title, total(s.wallSeconds) AS seconds, count(s.id) AS sessions, max(s.endedAt) AS last
                FROM book JOIN listeningSession s ON s.bookId = book.id GROUP BY book.id ORDER BY seconds DESC
                """).map {
                BookListening(bookId: $0["id"], title: $0["title"], wallSeconds: $0["seconds"], sessions: $0["sessions"],
                              lastPlayed: $0["last"])
            }
        }
    }

    /// A book's listening sessions, newest first.
    public func sessions(ofBook bookId: Int64? = nil, limit: Int = 50) throws -> [ListeningSession] {
        try writer.read { db in
            try ListeningSession.fetchAll(db, sql: """
                SELECT * FROM listeningSession WHERE ?1 IS NULL OR bookId = ?1 ORDER BY endedAt DESC, id DESC LIMIT ?2
                """, arguments: [bookId, limit])
        }
    }

    /// Play counts of a book's items, in play order (items never played are left out).
    public func itemPlays(ofBook bookId: Int64) throws -> [ItemPlays] {
        try writer.read { db in
            try Row.fetchAll(db, sql: """
                SELECT media.id, media.title, media.path, mediaPlay.playCount, mediaPlay.lastPlayedAt
                FROM bookItem JOIN media ON media.id = bookItem.mediaId JOIN mediaPlay ON mediaPlay.mediaId = media.id
                WHERE bookItem.bookId = ? ORDER BY bookItem.position
                """, arguments: [bookId]).map {
                ItemPlays(mediaId: $0["id"], title: ($0["title"] as String?) ?? (($0["path"] as String) as NSString).lastPathComponent,
                          playCount: $0["playCount"], lastPlayed: $0["lastPlayedAt"])
            }
        }
    }
}
