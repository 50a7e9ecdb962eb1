public import Foundation
public import GRDB

// One Codable record per table (GRDB's habit), each with its columns.
//
// Each names its table: GRDB derives a missing name from the type's name with regular
// expressions, which start ICU's regex engine (about 1 MiB more RSS in every player).

public struct Shelf: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "shelf"
    public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { StoredDate.encoding }
    public static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { StoredDate.decoding }
    public var id: Int64?
    public var parentId: Int64?
    public var name: String
    public var createdAt: Date

    public enum Columns {
        static let id = Column(CodingKeys.id)
        static let parentId = Column(CodingKeys.parentId)
        static let name = Column(CodingKeys.name)
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

public struct Book: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "book"
    public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { StoredDate.encoding }
    public static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { StoredDate.decoding }
    public var id: Int64?
    public var shelfId: Int64?
    public var title: String
    public var author: String?
    public var narrator: String?
    public var composer: String?
    /// The file or folder it was imported from, for the user's information only (paths are not
    /// identity: media fingerprints are).
    public var sourcePath: String?
    public var addedAt: Date
    public var finishedAt: Date?
    public var subtitle: String?
    public var series: String?
    /// Its place in the series ("Book 2.5": 2.5); orders the books of a series shelf.
    public var seriesNumber: Double?
    public var year: Int?
    /// The publisher's or listener's description (a sidecar `desc.txt`, `metadata.json`).
    public var bookDescription: String?
    /// A cover image file beside the audio, for books whose files hold no picture.
    public var coverPath: String?

    public init(id: Int64? = nil, shelfId: Int64? = nil, title: String, author: String? = nil, narrator: String? = nil,
                composer: String? = nil, sourcePath: String? = nil, addedAt: Date = Date(), finishedAt: Date? = nil,
                subtitle: String? = nil, series: String? = nil, seriesNumber: Double? = nil, year: Int? = nil,
                bookDescription: String? = nil, coverPath: String? = nil) {
        self.id = id
        self.shelfId = shelfId
        self.title = title
        self.author = author
        self.narrator = narrator
        self.composer = composer
        self.sourcePath = sourcePath
        self.addedAt = addedAt
        self.finishedAt = finishedAt
        self.subtitle = subtitle
        self.series = series
        self.seriesNumber = seriesNumber
        self.year = year
        self.bookDescription = bookDescription
        self.coverPath = coverPath
    }

    public enum Columns {
        static let id = Column(CodingKeys.id)
        static let shelfId = Column(CodingKeys.shelfId)
        static let title = Column(CodingKeys.title)
        static let finishedAt = Column(CodingKeys.finishedAt)
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// One audio file, with its tags and its content fingerprint.
public struct Media: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "media"
    public var id: Int64?
    public var path: String
    public var size: Int64
    public var fingerprint: String
    public var isMissing: Bool
    public var title: String?
    public var artist: String?
    public var album: String?
    public var albumArtist: String?
    public var composer: String?
    public var narrator: String?
    public var genre: String?
    public var year: Int?
    public var trackNumber: Int?
    public var trackCount: Int?
    public var discNumber: Int?
    public var discCount: Int?
    public var sampleRate: Int
    public var durationFrames: Int64?
    /// JSON array of `ChapterMark`.
    public var chapters: String
    public var hasCover: Bool

    public enum Columns {
        static let id = Column(CodingKeys.id)
        static let path = Column(CodingKeys.path)
        static let size = Column(CodingKeys.size)
        static let fingerprint = Column(CodingKeys.fingerprint)
        static let isMissing = Column(CodingKeys.isMissing)
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    public var durationSeconds: Double? { durationFrames.map { Double($0) / Double(sampleRate) } }

    public var chapterMarks: [ChapterMark] {
        (try? JSONDecoder().decode([ChapterMark].self, from: Data(chapters.utf8))) ?? []
    }

    /// What to call it in a list: its title tag, else its file name without the extension.
    public var displayTitle: String {
        title ?? ((path as NSString).lastPathComponent as NSString).deletingPathExtension
    }
}

public struct BookItem: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "bookItem"
    public var id: Int64?
    public var bookId: Int64
    public var mediaId: Int64
    /// 0-based play order.
    public var position: Int

    public enum Columns {
        static let bookId = Column(CodingKeys.bookId)
        static let mediaId = Column(CodingKeys.mediaId)
        static let position = Column(CodingKeys.position)
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// Where the listener is in a book.
public struct Position: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "position"
    public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { StoredDate.encoding }
    public static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { StoredDate.decoding }
    public var bookId: Int64
    public var mediaId: Int64
    public var frame: Int64
    public var updatedAt: Date

    public init(bookId: Int64, mediaId: Int64, frame: Int64, updatedAt: Date) {
        self.bookId = bookId
        self.mediaId = mediaId
        self.frame = frame
        self.updatedAt = updatedAt
    }
}

/// A book's settings in the units people type and read (the CHECKs of LibrarySchema v4 and v7 keep
/// them in range; the front ends parse and refuse through the player's `SettingText`).
///
/// Speed and skip interval are the book's own when set (`ownSpeed`, `ownSkipIntervalSeconds`),
/// else the listener's defaults (`defaults`, filled in by `SettingsStore.ofBook(_:)`):
/// `speed` and `skipIntervalSeconds` read what applies, and assigning them makes it the book's own.
/// Saved, a setting that is not the book's own is NULL, so a default changed later still applies.
public struct BookSettings: Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "bookSettings"
    public var bookId: Int64
    /// Percent, 0-150 (100 = unchanged; above 100 may clip).
    public var volume: Double = 100
    /// 0.5-4 (1 = normal), the pitch kept; nil: the listener's default.
    public var ownSpeed: Double? = nil
    public var shuffle: Bool = false
    /// nil: the listener's default.
    public var ownSkipIntervalSeconds: Double? = nil
    /// The last sleep timer set with a time; nil when none was.
    public var sleepTimerSeconds: Double? = nil
    public var repeatMode: RepeatMode = .off
    /// Skip silence; nil: the listener's default. Since v9.
    public var ownSkipSilence: SkipSilence? = nil
    /// Evened out to the listener's loudness target (on), played as recorded (off); nil: the
    /// listener's default (`set loudness`). Since v8.
    public var loudness: Bool? = nil
    /// Seconds left out at the start and the end of every item (0: none); nil: the listener's
    /// default. Since v14.
    public var ownSkipIntroSeconds: Double? = nil
    public var ownSkipOutroSeconds: Double? = nil
    /// What applies where the book has no setting of its own (not stored with the book).
    public var defaults = Defaults()

    /// The listener's defaults for books with no setting of their own.
    public struct Defaults: Sendable, Equatable {
        public var speed = 1.0
        public var skipIntervalSeconds = 30.0
        public var skipSilence = SkipSilence.off
        public var skipIntroSeconds = 0.0
        public var skipOutroSeconds = 0.0

        public init() {}

        public init(_ preferences: PlayerPreferences) {
            speed = preferences.defaultSpeed ?? 1
            skipIntervalSeconds = preferences.defaultSkipSeconds ?? 30
            skipSilence = preferences.defaultSkipSilence ?? .off
            skipIntroSeconds = preferences.defaultSkipIntroSeconds ?? 0
            skipOutroSeconds = preferences.defaultSkipOutroSeconds ?? 0
        }
    }

    public init(bookId: Int64) { self.bookId = bookId }

    /// The speed that applies: the book's own, else the default. Setting it makes it the book's own.
    public var speed: Double {
        get { ownSpeed ?? defaults.speed }
        set { ownSpeed = newValue }
    }

    /// The skip interval that applies: the book's own, else the default.
    public var skipIntervalSeconds: Double {
        get { ownSkipIntervalSeconds ?? defaults.skipIntervalSeconds }
        set { ownSkipIntervalSeconds = newValue }
    }

    /// Skip silence as it applies: the book's own, else the default.
    public var skipSilence: SkipSilence {
        get { ownSkipSilence ?? defaults.skipSilence }
        set { ownSkipSilence = newValue }
    }

    /// The intro left out of every item, as it applies: the book's own, else the default.
    public var skipIntroSeconds: Double {
        get { ownSkipIntroSeconds ?? defaults.skipIntroSeconds }
        set { ownSkipIntroSeconds = newValue }
    }

    /// The outro left out of every item, as it applies: the book's own, else the default.
    public var skipOutroSeconds: Double {
        get { ownSkipOutroSeconds ?? defaults.skipOutroSeconds }
        set { ownSkipOutroSeconds = newValue }
    }

    public init(row: Row) throws {
        bookId = row["bookId"]
        ownSkipIntroSeconds = row["skipIntroSeconds"]
        ownSkipOutroSeconds = row["skipOutroSeconds"]
        ownSkipSilence = row["skipSilenceMs"]
        volume = row["volume"]
        ownSpeed = row["speed"]
        shuffle = row["shuffle"]
        ownSkipIntervalSeconds = row["skipIntervalSeconds"]
        sleepTimerSeconds = row["sleepTimerSeconds"]
        repeatMode = row["repeatMode"]
        loudness = row["loudness"]
    }

    public func encode(to container: inout PersistenceContainer) throws {
        container["bookId"] = bookId
        container["volume"] = volume
        container["speed"] = ownSpeed
        container["shuffle"] = shuffle
        container["skipIntervalSeconds"] = ownSkipIntervalSeconds
        container["sleepTimerSeconds"] = sleepTimerSeconds
        container["repeatMode"] = repeatMode
        container["skipSilenceMs"] = ownSkipSilence
        container["loudness"] = loudness
        container["skipIntroSeconds"] = ownSkipIntroSeconds
        container["skipOutroSeconds"] = ownSkipOutroSeconds
    }
}

public enum BookmarkKind: String, Codable, Sendable, CaseIterable, DatabaseValueConvertible {
    case user
    /// Automatic: where the listener was before a seek, a skip, a chapter or item jump.
    case beforeSeek, beforeSkip, beforeChapterJump, beforeItemJump
    /// Automatic: where a sleep timer stopped playback.
    case sleepTimer
    /// Automatic: where the listener was before going to a bookmark (`jump N`); since v7.
    case beforeBookmarkJump
    /// Automatic: where the listener was before another device's place was taken; since v11.
    case beforeSyncJump

    public var isAutomatic: Bool { self != .user }

    /// What made it, in words a listener reads (or hears): "before a seek", "sleep timer".
    public var words: String {
        switch self {
        case .user: "yours"
        case .beforeSeek: "before a seek"
        case .beforeSkip: "before a skip"
        case .beforeChapterJump: "before a chapter jump"
        case .beforeItemJump: "before an item jump"
        case .sleepTimer: "sleep timer"
        case .beforeBookmarkJump: "before a bookmark jump"
        case .beforeSyncJump: "before another computer's place"
        }
    }
}

public struct Bookmark: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "bookmark"
    public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { StoredDate.encoding }
    public static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { StoredDate.decoding }
    public var id: Int64?
    public var bookId: Int64
    public var mediaId: Int64
    public var frame: Int64
    public var kind: BookmarkKind
    public var note: String?
    public var createdAt: Date

    public enum Columns {
        static let id = Column(CodingKeys.id)
        static let bookId = Column(CodingKeys.bookId)
        static let kind = Column(CodingKeys.kind)
        static let createdAt = Column(CodingKeys.createdAt)
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

public struct ListeningSession: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "listeningSession"
    public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { StoredDate.encoding }
    public static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { StoredDate.decoding }
    public var id: Int64?
    public var bookId: Int64
    public var fromMediaId: Int64
    public var fromFrame: Int64
    public var toMediaId: Int64
    public var toFrame: Int64
    public var startedAt: Date
    public var endedAt: Date
    public var wallSeconds: Double
    public var speed: Double

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// A chapter inside one media item, as stored in `media.chapters`.
public struct ChapterMark: Codable, Sendable, Equatable {
    public var startFrame: Int64
    public var title: String

    public init(startFrame: Int64, title: String) {
        self.startFrame = startFrame
        self.title = title
    }
}
