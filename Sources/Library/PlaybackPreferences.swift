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
    /// The listener's defaults for books with no setting of their own (`set speed 1.3`); nil: none
    /// set (speed 1, skip 30 s, no sleep timer armed at the start of a book). Since v7.
    public var defaultSpeed: Double?
    public var defaultSkipSeconds: Double?
    /// Armed when a book starts.
    public var defaultSleepSeconds: Double?
    /// Skip silence for books with no setting of their own as stored (`SkipSilence`'s integer);
    /// nil: none set (off). Since v9.
    var defaultSkipSilenceMs: Int?

    public var defaultSkipSilence: SkipSilence? {
        get { defaultSkipSilenceMs.map { $0 == 0 ? .off : .on(minimumMs: $0) } }
        set { defaultSkipSilenceMs = newValue.map { if case let .on(minimumMs) = $0 { minimumMs } else { 0 } } }
    }
    /// Books with no setting of their own are evened out to `loudnessTargetLUFS`; nil: on (the
    /// built-in default). Since v8.
    public var loudness: Bool?
    /// nil: -18 LUFS (`LoudnessTarget.defaultLUFS`).
    public var loudnessTargetLUFS: Double?
    /// Seconds left out at the start and the end of every item of books with no setting of
    /// their own; nil: none set (none left out). Since v14.
    public var defaultSkipIntroSeconds: Double?
    public var defaultSkipOutroSeconds: Double?
    /// The REPL's terminal gets plain lines and announcements (`set plain on`) whatever TERM
    /// says; nil: not set (off: plain only at TERM=dumb or with --plain). Since v15.
    public var plainMode: Bool?

    public init() {}
}

/// A book waiting in the play queue.
public struct QueueEntry: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "queueEntry"
    public var bookId: Int64
    public var position: Int
}
