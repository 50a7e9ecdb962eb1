import Foundation
import GRDB

/// The play queue: books to play next, in order.
public struct QueueStore: Sendable {
    let writer: any DatabaseWriter

    /// The queued books, first to play first.
    public func books() throws -> [Book] {
        try writer.read { db in
            try Book.fetchAll(db, sql: """
                SELECT book.* FROM queueEntry JOIN book ON book.id = queueEntry.bookId ORDER BY queueEntry.position
                """)
        }
    }

    /// Adds a book at the end of the queue; false when it was already queued (it stays where it is).
    @discardableResult
    public func enqueue(bookId: Int64) throws -> Bool {
        try writer.write { db in
            if try QueueEntry.fetchOne(db, key: bookId) != nil { return false }
            let next = try Int.fetchOne(db, sql: "SELECT ifnull(max(position) + 1, 0) FROM queueEntry") ?? 0
            try QueueEntry(bookId: bookId, position: next).insert(db)
            return true
        }
    }

    /// Moves the entry at `from` to `to` (0-based); the others keep their order.
    public func move(from: Int, to: Int) throws {
        try rewriteQueue { ids in
            guard ids.indices.contains(from), ids.indices.contains(to) else { throw QueueIndexError(count: ids.count) }
            ids.insert(ids.remove(at: from), at: to)
        }
    }

    /// Removes the entry at `index` (0-based) and returns its book's id.
    @discardableResult
    public func remove(at index: Int) throws -> Int64 {
        var removed: Int64 = 0
        try rewriteQueue { ids in
            guard ids.indices.contains(index) else { throw QueueIndexError(count: ids.count) }
            removed = ids.remove(at: index)
        }
        return removed
    }

    public func clear() throws {
        _ = try writer.write { db in try QueueEntry.deleteAll(db) }
    }

    /// Takes the first queued book off the queue; nil when it is empty.
    public func dequeue() throws -> Book? {
        try writer.write { db in
            guard let first = try QueueEntry.order(Column("position")).fetchOne(db) else { return nil }
            try first.delete(db)
            return try Book.fetchOne(db, key: first.bookId)
        }
    }

    /// Renumbers the queue 0, 1, 2... in the order `change` leaves the ids in, in one transaction.
    private func rewriteQueue(_ change: (inout [Int64]) throws -> Void) throws {
        try writer.write { db in
            var ids = try Int64.fetchAll(db, sql: "SELECT bookId FROM queueEntry ORDER BY position")
            try change(&ids)
            try QueueEntry.deleteAll(db)
            for (position, id) in ids.enumerated() { try QueueEntry(bookId: id, position: position).insert(db) }
        }
    }
}

/// A queue position that does not exist.
public struct QueueIndexError: Error, CustomStringConvertible {
    public let count: Int
    public var description: String {
        count == 0 ? "the queue is empty" : "no such place in the queue: use 1-\(count)"
    }
}
