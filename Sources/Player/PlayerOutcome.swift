public import Library
import PlayerCore

/// What a command did, for the front end to show in its own way. Times are seconds into the
/// book; nil where an earlier item's length is unknown.
public enum PlayerOutcome: Sendable {
    /// Done, nothing to tell (pause, toggle, a jump).
    case done
    /// A book was loaded and plays from `seconds` into it.
    case started(book: Book, seconds: Double?, item: Int, itemCount: Int, output: String)
    case chapter(number: Int, count: Int, title: String)
    case undone(to: Double?)
    /// A bookmark made here (its time is shown as `bookmarks` lists it: `BookmarkPlace.time`).
    case bookmarked(BookmarkPlace)
    case bookmarks(book: String, [BookmarkPlace])
    /// Went to a bookmark (`jump N`): an undo point like any jump.
    case jumpedToBookmark(BookmarkPlace)
    case bookmarkRemoved(BookmarkPlace)
    case bookmarkNoted(BookmarkPlace)
    /// The listener's defaults (`set`); `changed`: the one just set or cleared.
    case defaults(ListenerDefaults, changed: ListenerSetting?)
    /// The book's speed and volume now.
    case settings(speed: Double, volumePercent: Double)
    /// The output chosen; `playing`: the book loaded switched to it (else the next book will use it).
    case output(String, playing: Bool)
    case status(Status)
    /// The sleep timer now: "12:34 left", "end of chapter"...; nil when off.
    case sleepTimer(String?)
    case queue([Book])
    case queued(Book, count: Int)
    case alreadyQueued(Book)
    case queueMoved(from: Int, to: Int)
    case unqueued(bookId: Int64)
    case queueCleared
    case repeatMode(RepeatMode)
    case shuffle(Bool)
    /// Auto-rewind: nil when off, else the most it goes back.
    case rewind(maxSeconds: Double?)
    case stopped(book: String, reason: String)
}
