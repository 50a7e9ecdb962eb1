import Foundation
public import GRDB

/// A chapter the listener made, renamed or detected: the book's own, kept in the library (the
/// files are never written). Once a book has any, they are its whole chapter list.
///
/// Keyed like bookmarks and positions: by the media row and a frame in it. A rescan that finds a
/// file at a new path updates that row's path and keeps its id, so the chapters follow moved files
/// (an export names the media by content fingerprint instead, for another library).
public struct UserChapter: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "userChapter"
    public var id: Int64?
    public var bookId: Int64
    public var mediaId: Int64
    /// At the media item's own sample rate.
    public var frame: Int64
    public var title: String

    public init(id: Int64? = nil, bookId: Int64, mediaId: Int64, frame: Int64, title: String) {
        self.id = id
        self.bookId = bookId
        self.mediaId = mediaId
        self.frame = frame
        self.title = title
    }

    public enum Columns {
        static let bookId = Column(CodingKeys.bookId)
        static let mediaId = Column(CodingKeys.mediaId)
        static let frame = Column(CodingKeys.frame)
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// Its own table, so this migration stands alone whatever runs before it. One chapter per
    /// place: two starting at the same frame would make one of them empty.
    static let v10 = """
        CREATE TABLE userChapter (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            bookId INTEGER NOT NULL REFERENCES book(id) ON DELETE CASCADE,
            mediaId INTEGER NOT NULL REFERENCES media(id) ON DELETE CASCADE,
            frame INTEGER NOT NULL CHECK (frame >= 0),
            title TEXT NOT NULL CHECK (length(trim(title)) > 0),
            UNIQUE (bookId, mediaId, frame)
        );
        """
}

/// Where a user chapter starts and what it is called, before it is stored.
public struct UserChapterStart: Sendable, Equatable {
    public var mediaId: Int64
    public var frame: Int64
    public var title: String

    public init(mediaId: Int64, frame: Int64, title: String) {
        self.mediaId = mediaId
        self.frame = frame
        self.title = title
    }
}

extension LibraryDatabase {
    /// A book's own chapters, in no particular order: the player lays them out by item and frame.
    public func userChapters(ofBook bookId: Int64) throws -> [UserChapter] {
        try writer.read { db in
            try UserChapter.filter(UserChapter.Columns.bookId == bookId)
                .order(UserChapter.Columns.mediaId, UserChapter.Columns.frame).fetchAll(db)
        }
    }

    /// Replaces a book's own chapters with `starts` in one transaction (empty: the book's
    /// embedded chapters are its chapters again).
    @discardableResult
    public func replaceUserChapters(ofBook bookId: Int64, with starts: [UserChapterStart]) throws -> [UserChapter] {
        try writer.write { db in
            try UserChapter.filter(UserChapter.Columns.bookId == bookId).deleteAll(db)
            return try starts.map { start in
                var chapter = UserChapter(bookId: bookId, mediaId: start.mediaId, frame: max(0, start.frame), title: start.title)
                try Self.insertChapter(&chapter, db)
                return chapter
            }
        }
    }

    @discardableResult
    public func addUserChapter(_ start: UserChapterStart, toBook bookId: Int64) throws -> UserChapter {
        try writer.write { db in
            var chapter = UserChapter(bookId: bookId, mediaId: start.mediaId, frame: max(0, start.frame), title: start.title)
            try Self.insertChapter(&chapter, db)
            return chapter
        }
    }

    public func renameUserChapter(id: Int64, title: String) throws {
        let renamed = try writer.write { db in
            try db.execute(sql: "UPDATE userChapter SET title = ? WHERE id = ?", arguments: [title, id])
            return db.changesCount > 0
        }
        if !renamed { throw LibraryError.notFound("no chapter #\(id)") }
    }

    public func deleteUserChapter(id: Int64) throws {
        let deleted = try writer.write { db in try UserChapter.deleteOne(db, key: id) }
        if !deleted { throw LibraryError.notFound("no chapter #\(id)") }
    }

    /// The constraints' refusals in the listener's words.
    private static func insertChapter(_ chapter: inout UserChapter, _ db: Database) throws {
        do {
            try chapter.insert(db)
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw LibraryError.invalid("there is already a chapter at that place")
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_CHECK {
            throw LibraryError.invalid("a chapter needs a title that is not empty")
        }
    }
}
