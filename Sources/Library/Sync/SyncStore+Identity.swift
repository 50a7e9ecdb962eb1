import Foundation
import GRDB

extension SyncBookIdentity {
    /// A book's identity from its items' fingerprints and lengths in play order (its length: nil
    /// when one item's is unknown).
    init(title: String, author: String?, fingerprints: [String], lengths: [Double?]) {
        self.init(items: fingerprints, title: title, author: author,
                  seconds: lengths.contains(nil) ? nil : lengths.reduce(0) { $0 + $1! })
    }

    /// Whether a book holding `count` of these items (by content) is this book: at least half of
    /// them. The one rule, whether the counting is done in SQL or in memory.
    func isMatched(byHolding count: Int) -> Bool { 2 * count >= Set(items).count }
}

extension SyncStore {
    /// How other libraries recognise `bookId`: its items' fingerprints, title, author and length.
    public func identity(ofBook bookId: Int64) throws -> SyncBookIdentity {
        try writer.read { db in
            guard let book = try Book.fetchOne(db, key: bookId) else { throw LibraryError.invalid("no book \(bookId)") }
            let media = try BookStore.items(db, bookId: bookId)
            return SyncBookIdentity(title: book.title, author: book.author, fingerprints: media.map(\.fingerprint),
                                    lengths: media.map(\.durationSeconds))
        }
    }

    /// The book of this library that another library's `identity` names: the one holding most of
    /// its items (at least half of them) by content; failing that, one book with the same title
    /// and author (ignoring case) whose length is within 0.5 % or 2 s of it (another rip's padding). Nil when none is.
    public func bookId(matching identity: SyncBookIdentity) throws -> Int64? {
        try writer.read { db in
            if !identity.items.isEmpty {
                let json = String(decoding: try JSONEncoder().encode(identity.items), as: UTF8.self)
                if let row = try Row.fetchOne(db, sql: """
                    SELECT bookItem.bookId, count(DISTINCT media.fingerprint) FROM bookItem JOIN media ON media.id = bookItem.mediaId
                    WHERE media.fingerprint IN (SELECT value FROM json_each(?))
                    GROUP BY bookItem.bookId ORDER BY count(DISTINCT media.fingerprint) DESC, bookItem.bookId LIMIT 1
                    """, arguments: [json]), identity.isMatched(byHolding: row[1]) {
                    return row[0]
                }
            }
            return try Self.bookId(byTitleAndLengthOf: identity, db)
        }
    }

    /// The one book with `identity`'s title and author (ignoring case) whose length is within
    /// 0.5 % or 2 s of it; nil when none is, or more than one.
    static func bookId(byTitleAndLengthOf identity: SyncBookIdentity, _ db: Database) throws -> Int64? {
        let candidates = try Int64.fetchAll(db, sql: """
            SELECT id FROM book WHERE title = ? COLLATE NOCASE AND ifnull(author, '') = ? COLLATE NOCASE
            """, arguments: [identity.title, identity.author ?? ""])
        guard let seconds = identity.seconds else { return candidates.count == 1 ? candidates[0] : nil }
        let matching = try candidates.filter { id in
            let lengths = try BookStore.items(db, bookId: id).map(\.durationSeconds)
            guard !lengths.contains(nil) else { return false }
            let length = lengths.reduce(0) { $0 + $1! }
            return abs(length - seconds) <= max(2, seconds / 200)
        }
        return matching.count == 1 ? matching[0] : nil
    }
}
