public import Foundation
import GRDB

/// The listener's bookmarks and the automatic ones left before each jump (undone by
/// `popLastJump`).
public struct BookmarkStore: Sendable {
    let writer: any DatabaseWriter

    /// Automatic bookmarks kept per book: enough to undo a run of jumps, bounded so a long
    /// listening life does not grow the table without end.
    public static let automaticBookmarkLimit = 50

    /// Adds a bookmark; automatic ones beyond the limit are pruned, oldest first, in the same
    /// transaction.
    @discardableResult
    public func add(bookId: Int64, mediaId: Int64, frame: Int64, kind: BookmarkKind,
                    note: String? = nil, at date: Date = Date()) throws -> Bookmark {
        try writer.write { db in
            var bookmark = Bookmark(id: nil, bookId: bookId, mediaId: mediaId, frame: max(0, frame), kind: kind,
                                    note: note, createdAt: date)
            try bookmark.insert(db)
            if kind.isAutomatic {
                try db.execute(sql: """
                    DELETE FROM bookmark WHERE bookId = ? AND kind != 'user' AND id NOT IN (
                        SELECT id FROM bookmark WHERE bookId = ? AND kind != 'user' ORDER BY createdAt DESC, id DESC LIMIT ?)
                    """, arguments: [bookId, bookId, Self.automaticBookmarkLimit])
            }
            return bookmark
        }
    }

    /// A book's bookmarks, oldest first.
    public func all(ofBook bookId: Int64, includeAutomatic: Bool = true) throws -> [Bookmark] {
        try writer.read { db in
            var request = Bookmark.filter(Bookmark.Columns.bookId == bookId)
            if !includeAutomatic { request = request.filter(Bookmark.Columns.kind == BookmarkKind.user.rawValue) }
            return try request.order(Bookmark.Columns.createdAt, Bookmark.Columns.id).fetchAll(db)
        }
    }

    /// A book's bookmarks as the listener's lists number them (`BookmarkNumber`), in the book's
    /// order: by item, then by place in the item. Two at the same place (one made on each of two
    /// computers, say) go by when they were made (to the millisecond, as sync carries it), then
    /// by their sync id, which every computer that has them shares, so synced libraries number a
    /// book's bookmarks alike; the local id settles only what was never synced. A bookmark whose
    /// file has left the book comes last.
    public func numbered(ofBook bookId: Int64) throws -> [NumberedBookmark] {
        try writer.read { db in
            NumberedBookmark.numbering(try Bookmark.fetchAll(db, sql: """
                SELECT bookmark.* FROM bookmark
                LEFT JOIN bookItem ON bookItem.bookId = bookmark.bookId AND bookItem.mediaId = bookmark.mediaId
                WHERE bookmark.bookId = ?
                ORDER BY bookItem.position IS NULL, bookItem.position, bookmark.frame, bookmark.createdAt,
                         bookmark.syncId IS NULL, bookmark.syncId, bookmark.id
                """, arguments: [bookId]))
        }
    }

    /// Bookmark `number` of a book, as `numbered` counts; nil when the book has no such number.
    public func bookmark(_ number: BookmarkNumber, ofBook bookId: Int64) throws -> NumberedBookmark? {
        try numbered(ofBook: bookId).first { $0.number == number }
    }

    /// Bookmark `id`, of any book; nil when there is none.
    public func bookmark(id: Int64) throws -> Bookmark? {
        try writer.read { db in try Bookmark.fetchOne(db, key: id) }
    }

    /// Replaces a bookmark's note (nil or empty: none).
    public func updateNote(id: Int64, note: String?) throws {
        let note = note?.isEmpty == true ? nil : note
        let updated = try writer.write { db in
            try db.execute(sql: "UPDATE bookmark SET note = ?, editedAt = ? WHERE id = ?", arguments: [note, StoredDate.text(Date()), id])
            return db.changesCount > 0
        }
        if !updated { throw LibraryError.notFound("no bookmark #\(id)") }
    }

    public func delete(id: Int64) throws {
        let deleted = try writer.write { db in try Bookmark.deleteOne(db, key: id) }
        if !deleted { throw LibraryError.notFound("no bookmark #\(id)") }
    }

    /// Undo the last jump: removes and returns the newest automatic bookmark — where the listener
    /// was before the last seek/skip/jump — so the player can go back there.
    public func popLastJump(bookId: Int64) throws -> Bookmark? {
        try writer.write { db in
            guard let last = try Bookmark.filter(Bookmark.Columns.bookId == bookId)
                .filter(Bookmark.Columns.kind != BookmarkKind.user.rawValue)
                .order(Bookmark.Columns.createdAt.desc, Bookmark.Columns.id.desc).fetchOne(db) else { return nil }
            try last.delete(db)
            return last
        }
    }
}
