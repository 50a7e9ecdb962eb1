import Foundation
import GRDB

/// What this library holds that sync carries, read in a few queries: each book's identity, place,
/// finished mark, user bookmarks, settings and user chapters. Automatic bookmarks (before a seek, a jump, a sleep) are this
/// device's own undo points and never travel.
struct SyncSnapshot {
    struct Book {
        let id: Int64
        let identity: SyncBookIdentity
        /// Media ids in play order, beside `identity.items`, with each item's rate and length.
        let mediaIds: [Int64]
        let sampleRates: [Int]
        /// Each item's length in frames at its own rate (nil: unknown): a place, bookmark or
        /// chapter from another device past its item's end is damaged, never applied.
        let itemFrames: [Int64?]
        /// When each item starts, in seconds into the whole book; nil from the first item whose
        /// length is unknown on (worked out once: an exchange asks it for every other device's
        /// place in every book, a million times for 100 devices and 10,000 books).
        let itemStarts: [Double?]
        var position: Position?
        var finishedAt: Date?
        /// When it was marked finished or not finished here (or taken from another device); nil: not since v11.
        var finishedChangedAt: Date?
        var bookmarks: [Bookmark]
        /// Its settings that travel (all nil or off when it has none of its own).
        var settings: SyncBookSettings
        /// When they last changed here (or were taken from another device); nil: not since v12.
        var settingsChangedAt: Date?
        /// Its user chapters, in the book's order (item, frame).
        var chapters: [SyncChapter]
        /// When they last changed here (or were taken from another device); nil: not since v12.
        var chaptersChangedAt: Date?

        func fingerprint(ofMedia mediaId: Int64) -> String? { mediaIds.firstIndex(of: mediaId).map { identity.items[$0] } }
        func mediaId(ofFingerprint fingerprint: String) -> Int64? { identity.items.firstIndex(of: fingerprint).map { mediaIds[$0] } }

        /// Whether `frame` lies in the item at `index` (at most its length; any frame when the
        /// length is unknown).
        func holds(itemIndex index: Int, frame: Int64) -> Bool { itemFrames[index].map { frame <= $0 } ?? true }

        /// The media id of the item `fingerprint` names here when `frame` lies in it; `.beyondEnd`
        /// with the item's length when it does not; nil when the book has no such item.
        func place(item fingerprint: String, frame: Int64) -> ItemPlace? {
            guard let index = identity.items.firstIndex(of: fingerprint) else { return nil }
            return holds(itemIndex: index, frame: frame) ? .within(mediaId: mediaIds[index]) : .beyondEnd(length: itemFrames[index] ?? 0)
        }

        enum ItemPlace: Equatable {
            case within(mediaId: Int64)
            case beyondEnd(length: Int64)
        }

        /// Seconds into the whole book of a frame in an item; nil when the item is not this
        /// book's or an earlier item's length is unknown.
        func seconds(item fingerprint: String, frame: Int64) -> Double? {
            identity.items.firstIndex(of: fingerprint).flatMap { seconds(itemIndex: $0, frame: frame) }
        }

        /// The same for the item at `index` in `identity.items`.
        func seconds(itemIndex index: Int, frame: Int64) -> Double? {
            itemStarts[index].map { $0 + Double(frame) / Double(sampleRates[index]) }
        }

        /// Each item's start from the items' lengths (nil from the first unknown one on).
        static func starts(of itemSeconds: [Double?]) -> [Double?] {
            var start: Double? = 0
            return itemSeconds.map { length in
                defer { start = start.flatMap { start in length.map { start + $0 } } }
                return start
            }
        }
    }

    var books: [Int64: Book] = [:]
    /// User bookmarks' sync ids, by bookmark id (those given one so far).
    var syncIds: [Int64: String] = [:]
    /// When a user bookmark's note or place last changed, by bookmark id (those changed since v11).
    var editedAt: [Int64: Date] = [:]
    /// Which book holds each fingerprint, and the others that also do (few do): a journal's books
    /// are found here before the database is asked. Two dictionaries, not one of arrays: an array
    /// per fingerprint was 200,000 allocations for a library of 10,000 books.
    private var bookByFingerprint: [String: Int64] = [:]
    private var otherBooksByFingerprint: [String: [Int64]] = [:]

    /// The books holding `fingerprint`, the first found first.
    func books(holding fingerprint: String) -> [Int64] {
        bookByFingerprint[fingerprint].map { [$0] + (otherBooksByFingerprint[fingerprint] ?? []) } ?? []
    }

    init(_ db: Database) throws {
        var items: [Int64: [(mediaId: Int64, fingerprint: String, rate: Int, frames: Int64?, seconds: Double?)]] = [:]
        let rows = try Row.fetchCursor(db, sql: """
            SELECT bookItem.bookId, media.id, media.fingerprint, media.durationFrames, media.sampleRate
            FROM bookItem JOIN media ON media.id = bookItem.mediaId ORDER BY bookItem.bookId, bookItem.position
            """)
        var itemCount = 0
        while let row = try rows.next() {
            itemCount += 1
            let frames: Int64? = row[3]
            let rate: Int = row[4]
            items[row[0], default: []].append((row[1], row[2], rate, frames, frames.map { Double($0) / Double(rate) }))
        }
        // Rows read by column number, not decoded as records: the decoder looks each column up
        // by name, and for 10,000 books that was a third of the snapshot.
        func date(_ row: Row, _ column: Int) -> Date? { StoredDate.date(from: row[column]) }
        /// A date that must be there: a row without one stops the exchange, as a record that cannot be decoded would.
        func required(_ row: Row, _ column: Int, of table: String) throws -> Date {
            guard let date = date(row, column) else { throw LibraryError.invalid("a \(table) in the library has no readable time (\(row))") }
            return date
        }
        var positions: [Int64: Position] = [:]
        let positionRows = try Row.fetchCursor(db, sql: "SELECT bookId, mediaId, frame, updatedAt FROM position")
        while let row = try positionRows.next() {
            let updatedAt = try required(row, 3, of: "place")
            positions[row[0]] = Position(bookId: row[0], mediaId: row[1], frame: row[2], updatedAt: updatedAt)
        }
        var bookmarks: [Int64: [Bookmark]] = [:]
        let bookmarkRows = try Row.fetchCursor(db, sql: """
            SELECT id, bookId, mediaId, frame, note, createdAt, syncId, editedAt FROM bookmark WHERE kind = 'user' ORDER BY id
            """)
        while let row = try bookmarkRows.next() {
            let createdAt = try required(row, 5, of: "bookmark")
            let bookmark = Bookmark(id: row[0], bookId: row[1], mediaId: row[2], frame: row[3], kind: .user, note: row[4], createdAt: createdAt)
            bookmarks[bookmark.bookId, default: []].append(bookmark)
            if let syncId: String = row[6] { syncIds[bookmark.id!] = syncId }
            if let edited = date(row, 7) { editedAt[bookmark.id!] = edited }
        }
        let settings = Dictionary(try BookSettings.fetchAll(db).map { ($0.bookId, SyncBookSettings($0)) }, uniquingKeysWith: { a, _ in a })
        var userChapters: [Int64: [UserChapter]] = [:]
        for chapter in try UserChapter.fetchAll(db) { userChapters[chapter.bookId, default: []].append(chapter) }
        bookByFingerprint.reserveCapacity(itemCount)
        let bookRows = try Row.fetchCursor(db, sql: """
            SELECT id, title, author, finishedAt, finishedChangedAt, settingsChangedAt, chaptersChangedAt FROM book
            """)
        while let row = try bookRows.next() {
            let id: Int64 = row[0]
            guard let bookItems = items[id] else { continue }
            let title: String = row[1], author: String? = row[2]
            let lengths = bookItems.map(\.seconds)
            let identity = SyncBookIdentity(title: title, author: author, fingerprints: bookItems.map(\.fingerprint), lengths: lengths)
            let mediaIds = bookItems.map(\.mediaId)
            // A chapter on a media row that is not one of the book's items cannot be named to another library.
            let chapters = (userChapters[id] ?? []).compactMap { chapter in
                mediaIds.firstIndex(of: chapter.mediaId).map { SyncChapter(item: identity.items[$0], frame: chapter.frame, title: chapter.title) }
            }
            books[id] = Book(id: id, identity: identity, mediaIds: mediaIds, sampleRates: bookItems.map(\.rate), itemFrames: bookItems.map(\.frames),
                             itemStarts: Book.starts(of: lengths), position: positions[id],
                             finishedAt: date(row, 3), finishedChangedAt: date(row, 4), bookmarks: bookmarks[id] ?? [],
                             settings: settings[id] ?? SyncBookSettings(), settingsChangedAt: date(row, 5),
                             chapters: SyncChapter.ordered(chapters, items: identity.items), chaptersChangedAt: date(row, 6))
            for fingerprint in identity.items {
                guard let first = bookByFingerprint[fingerprint] else { bookByFingerprint[fingerprint] = id; continue }
                if first != id && otherBooksByFingerprint[fingerprint]?.last != id { otherBooksByFingerprint[fingerprint, default: []].append(id) }
            }
        }
    }

    /// The book another library's `identity` names, as `SyncStore.bookId(matching:)` decides:
    /// most of its items by content (counted here, in memory, where the database would be asked
    /// once per book of every journal), else by title, author and length.
    func bookId(matching identity: SyncBookIdentity, library: SyncStore) -> Int64? {
        // The usual case, the same files on every device, in one look-up: the only book holding the
        // first item, with the same items (no other book can hold as many of them).
        if let first = identity.items.first, let holder = bookByFingerprint[first], otherBooksByFingerprint[first] == nil,
           books[holder]?.identity.items == identity.items {
            return holder
        }
        var counts: [Int64: Int] = [:]
        for fingerprint in Set(identity.items) {
            for book in books(holding: fingerprint) { counts[book, default: 0] += 1 }
        }
        if let best = counts.max(by: { ($0.value, -$0.key) < ($1.value, -$1.key) }), identity.isMatched(byHolding: best.value) {
            return best.key
        }
        return try? library.writer.read { db in try SyncStore.bookId(byTitleAndLengthOf: identity, db) }
    }
}
