public import Foundation
import GRDB

/// Where the listener is in each book and how they got there: the saved place, the open
/// listening session it extends, plays counted, finished marks, and where a book starts.
public struct PositionStore: Sendable {
    let writer: any DatabaseWriter

    public func ofBook(_ bookId: Int64) throws -> Position? {
        try writer.read { db in try Position.fetchOne(db, key: bookId) }
    }

    /// Saves where the listener is, in its own short transaction.
    public func savePosition(bookId: Int64, mediaId: Int64, frame: Int64, at date: Date = Date()) throws {
        try writer.write { db in
            try Position(bookId: bookId, mediaId: mediaId, frame: max(0, frame), updatedAt: date).upsert(db)
        }
    }

    /// Saves the position and extends the open listening session to it, in one transaction: so
    /// a `kill -9` loses at most what was heard since the last save, in both.
    public func saveProgress(bookId: Int64, mediaId: Int64, frame: Int64, session: Int64?, wallSeconds: Double, at date: Date = Date()) throws {
        try writer.write { db in
            try Position(bookId: bookId, mediaId: mediaId, frame: max(0, frame), updatedAt: date).upsert(db)
            if let session {
                try db.execute(sql: """
                    UPDATE listeningSession SET toMediaId = ?, toFrame = ?, endedAt = ?, wallSeconds = ? WHERE id = ?
                    """, arguments: [mediaId, max(0, frame), StoredDate.text(date), wallSeconds, session])
            }
        }
    }

    /// Forgets a listening session that lasted under a second and heard under a second of its
    /// item (it ends in the item it started in, fewer than that item's rate of frames away).
    public func forgetSessionIfNothingHeard(_ id: Int64) throws {
        try writer.write { db in
            try db.execute(sql: """
                DELETE FROM listeningSession WHERE id = ?1 AND wallSeconds < 1 AND fromMediaId = toMediaId
                AND abs(toFrame - fromFrame) < (SELECT sampleRate FROM media WHERE media.id = listeningSession.fromMediaId)
                """, arguments: [id])
        }
    }

    /// Opens a listening session starting at a place in a book.
    public func startSession(bookId: Int64, mediaId: Int64, frame: Int64, speed: Double, at date: Date = Date()) throws -> Int64 {
        try writer.write { db in
            var session = ListeningSession(
                id: nil, bookId: bookId, fromMediaId: mediaId, fromFrame: max(0, frame), toMediaId: mediaId,
                toFrame: max(0, frame), startedAt: date, endedAt: date, wallSeconds: 0, speed: speed)
            try session.insert(db)
            return session.id!
        }
    }

    /// Counts one play of a media item.
    public func countPlay(mediaId: Int64, at date: Date = Date()) throws {
        try writer.write { db in
            try db.execute(sql: """
                INSERT INTO mediaPlay (mediaId, playCount, lastPlayedAt) VALUES (?, 1, ?)
                ON CONFLICT(mediaId) DO UPDATE SET playCount = playCount + 1, lastPlayedAt = excluded.lastPlayedAt
                """, arguments: [mediaId, StoredDate.text(date)])
        }
    }

    /// Marks a book finished (played to its end).
    public func markFinished(bookId: Int64, at date: Date = Date()) throws {
        try writer.write { db in
            try db.execute(sql: "UPDATE book SET finishedAt = ?1, finishedChangedAt = ?1 WHERE id = ?2", arguments: [StoredDate.text(date), bookId])
        }
    }

    /// Takes the finished mark off a book: it is being played again.
    public func markUnfinished(bookId: Int64, at date: Date = Date()) throws {
        try writer.write { db in
            try db.execute(sql: "UPDATE book SET finishedAt = NULL, finishedChangedAt = ? WHERE id = ? AND finishedAt IS NOT NULL",
                           arguments: [StoredDate.text(date), bookId])
        }
    }

    /// Within the last seconds of the book (where a book that played to its end is left).
    static func isAtEnd(item: Int, frame: Int64, of items: [Media]) -> Bool {
        guard item == items.count - 1 else { return false }
        let last = items[item]
        guard let length = last.durationFrames else { return true }
        return frame >= length - Int64(last.sampleRate) * 5
    }

    /// Where to start a book: its saved position, or the top for a new or finished book (a
    /// finished book starts again from the top, asking nothing, and is no longer finished).
    /// Returns the item index and frame.
    public func startingPoint(ofBook bookId: Int64) throws -> (item: Int, frame: Int64) {
        let place = try startingPlace(ofBook: bookId)
        return (place.item, place.frame)
    }

    /// `startingPoint`, with when that place was saved (nil when it is the top of the book, not
    /// a saved place): smart rewind counts the pause from then.
    public func startingPlace(ofBook bookId: Int64) throws -> (item: Int, frame: Int64, savedAt: Date?) {
        try writer.write { db in
            let items = try BookStore.items(db, bookId: bookId)
            guard !items.isEmpty else { throw LibraryError.invalid("book #\(bookId) has no items") }
            let position = try Position.fetchOne(db, key: bookId)
            let index = position.flatMap { position in items.firstIndex { $0.id == position.mediaId } }
            if try Bool.fetchOne(db, sql: "SELECT finishedAt IS NOT NULL FROM book WHERE id = ?", arguments: [bookId]) == true {
                // Played again: no longer finished. From the top when it was left at its end;
                // from where it was left when the listener went back into it after the end.
                try db.execute(sql: "UPDATE book SET finishedAt = NULL, finishedChangedAt = ? WHERE id = ?",
                               arguments: [StoredDate.text(Date()), bookId])
                if let position, let index, !Self.isAtEnd(item: index, frame: position.frame, of: items) {
                    return (index, position.frame, position.updatedAt)
                }
                try Position(bookId: bookId, mediaId: items[0].id!, frame: 0, updatedAt: Date()).upsert(db)
                return (0, 0, nil)
            }
            guard let position, let index else { return (0, 0, nil) }
            return (index, position.frame, position.updatedAt)
        }
    }
}
