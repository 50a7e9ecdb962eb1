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
