public import GRDB

/// What plays again when an item or the book ends (per book).
public enum RepeatMode: String, Codable, Sendable, CaseIterable, DatabaseValueConvertible {
    case off, item, book
}

/// The player's preferences that are not a book's: the one row of `playerPreferences`.
public struct PlayerPreferences: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "playerPreferences"
    var id: Int64 = 1
    /// Go back a little on resume after a pause, more the longer the pause.
    public var autoRewind = true
    /// The most it goes back (after an hour's pause or more).
    public var autoRewindMaxSeconds = 30.0

    public init() {}
}

/// A book waiting in the play queue.
public struct QueueEntry: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "queueEntry"
    public var bookId: Int64
    public var position: Int
}
