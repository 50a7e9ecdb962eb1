public import Library
public import PlayerCore

/// Something a listener asks of the player, from any front end (a typed line, a key on the
/// player screen, a socket client, a D-Bus call), already parsed and resolved: books by id,
/// items by index, times in seconds.
public enum PlayerCommand: Equatable, Sendable {
    /// A book from its saved place; nil: resume what is loaded, else the book in progress, else
    /// the one played last.
    case play(bookId: Int64?)
    /// A book from its saved place, ending at `end` (an item and a frame in it) as it would at
    /// its last frame: `play --to`.
    case playUntil(bookId: Int64, end: PlaybackPosition)
    /// An item (0-based) of the book loaded, from its start.
    case playItem(Int)
    case pause
    case toggle
    /// `+N`/`-N`; nil seconds: the book's skip interval.
    case skip(forward: Bool, seconds: Double?)
    case seek(SeekTarget)
    /// An item (0-based) of the book loaded, at a time in it.
    case goto(item: Int, seconds: Double)
    case nextItem
    case previousItem
    case chapter(ChapterTarget)
    /// The chapters of a book; nil: the one loaded.
    case chapters(bookId: Int64?)
    /// The listener's own chapters changed (`chapter add/rename/rm`, `chapters reset/detect`).
    case editChapters(ChapterEdit)
    /// Back to where the last jump left.
    case undo
    case bookmark(note: String?)
    /// The bookmarks of a book (nil: the one loaded); `all`: the automatic ones too.
    case bookmarks(bookId: Int64?, all: Bool)
    /// Bookmark `number` of the book loaded (`jump N`), leaving an undo point.
    case gotoBookmark(BookmarkNumber)
    /// Bookmark `number` of the book loaded (numbers are a book's list's, `BookmarkNumber`).
    case removeBookmark(BookmarkNumber)
    /// The note of bookmark `number` of the book loaded replaced; nil: none.
    case noteBookmark(BookmarkNumber, note: String?)
    /// `set ...`: the listener's defaults for books with no setting of their own.
    case defaults(DefaultsCommand)
    /// The book loaded follows the listener's default for this setting again (`speed default`).
    case useDefault(ListenerSetting)
    /// 0.5-4.0 (`PlaybackEngine.speedRange`): anything else is refused, not clamped.
    case speed(Double)
    /// 0-150 % (`PlaybackEngine.volumeRange`).
    case volume(percent: Double)
    /// A step of the speed (`speed +0.1`, the screen's `]`): to the tenth, and at an end of the
    /// range it stops there rather than being refused.
    case stepSpeed(by: Double)
    /// A step of the volume in percent (`volume -5`, the screen's ↓), stopping at the range's ends.
    case stepVolume(by: Double)
    /// Skip silence for the book loaded; nil: show it (and the time it saved).
    case skipSilence(SkipSilence?)
    /// Seconds left out at the start (intro) or the end (outro) of every item of the book
    /// loaded, 0: none; nil: show them (and the time left out so far).
    case skipIntro(seconds: Double?)
    case skipOutro(seconds: Double?)
    /// An output as the user names it (`--output` syntax).
    case output(String)
    case status
    case sleep(SleepCommand)
    case queue(QueueCommand)
    case repeatMode(RepeatMode?)
    case shuffle(Bool?)
    case rewind(RewindSetting?)
    /// `sync`, `sync now`, `sync dir FOLDER|off`, `sync jump`.
    case sync(SyncRequest)
    /// Evening out the book's loudness (`loudness on|off|default|measure`).
    case loudness(LoudnessCommand)
    /// Stops the book being played (position saved), saying why: its items were edited or it
    /// was deleted.
    case stop(reason: String)
}

public enum ChapterTarget: Equatable, Sendable {
    case next, previous
    /// 1-based, across the whole book.
    case number(Int)
    /// The chapter whose title is or (uniquely) contains this, ignoring case.
    case named(String)
}

/// `sleep ...`: when playback stops by itself.
public enum SleepCommand: Equatable, Sendable {
    /// `sleep`: what is set.
    case show
    /// After this much playing time, in seconds.
    case duration(Double)
    case endOfChapter
    case endOfItem
    case off
    /// More time on a running timer.
    case extend(Double)
    /// off -> 15m -> 30m -> 45m -> 60m -> chapter -> off (the screen's `s` key).
    case cycle
}

/// `queue ...`: the books to play after this one. Indexes are 1-based as typed.
public enum QueueCommand: Equatable, Sendable {
    case list
    case add(bookId: Int64)
    case move(from: Int, to: Int)
    case remove(Int)
    case clear
}

/// Auto-rewind on resume after a pause.
public enum RewindSetting: Equatable, Sendable {
    case auto, off
    /// On, going back at most this many seconds.
    case max(Double)
}

/// A setting a listener sets once, as a default (`set NAME VALUE`).
public enum ListenerSetting: String, Equatable, Sendable, CaseIterable {
    case speed, skip, rewind, sleep
    /// Skip silence (`set silence on|off|MS`).
    case silence
    /// On (1) or off (0), like `rewind`'s 0 for off; and the target in LUFS.
    case loudness
    case loudnessTarget = "loudness-target"
    /// Seconds left out at the start and the end of every item (`set intro 30s`), 0: none.
    case intro, outro
    /// Plain lines and announcements at the REPL's terminal (`set plain on|off`): 1 or 0.
    case plain
}

/// `set`, `set NAME VALUE`, `set NAME default`.
public enum DefaultsCommand: Equatable, Sendable {
    /// What is set.
    case show
    /// Speed as a factor, the others in seconds; nil: clear it (the built-in behaviour).
    /// `rewind` with 0 turns auto-rewind off; `silence` is the shortest silence shortened, 0: off.
    case set(ListenerSetting, Double?)
}
