public import Library
import PlayerCore

/// What a command did, for the front end to show in its own way. Times are seconds into the
/// book; nil where an earlier item's length is unknown.
public enum PlayerOutcome: Sendable {
    /// Done, nothing to tell.
    case done
    /// Paused (`pause`, a toggle, an Enter at the prompt) here.
    case paused(Place)
    /// Playing on from here (`play` of the book loaded, a toggle, an Enter), after any auto-rewind.
    case resumed(Place)
    /// A move (seek, skip, goto, next/prev, a chapter) landed here.
    case moved(Place)
    /// A book was loaded and plays from `seconds` into it.
    case started(book: Book, seconds: Double?, item: Int, itemCount: Int, output: String)
    /// A book was loaded paused at its saved place, ready to play (`cueBookListenedToLast`).
    case cued(book: Book, seconds: Double?, item: Int, itemCount: Int)
    /// `undo` went back to here.
    case undone(Place)
    /// The chapters of `book`, and the one it is in (an index into them; nil when before the
    /// first, or for a book not loaded that was never played).
    case chapters(book: String, [ChapterListing], current: Int?)
    /// The listener's own chapters changed.
    case chapterEdited(ChapterChange)
    /// A bookmark made here (its time is shown as `bookmarks` lists it: `BookmarkPlace.time`).
    case bookmarked(BookmarkPlace)
    case bookmarks(book: String, [BookmarkPlace])
    /// Went to a bookmark (`jump N`): an undo point like any jump; `place`: where it is now.
    case jumpedToBookmark(BookmarkPlace, place: Place)
    /// A bookmark removed; `moved`: how many of its kind came after it, each now a number lower.
    case bookmarkRemoved(BookmarkPlace, moved: Int)
    case bookmarkNoted(BookmarkPlace)
    /// The listener's defaults (`set`); `changed`: the one just set or cleared.
    case defaults(ListenerDefaults, changed: ListenerSetting?)
    /// The book's speed and volume now, and where it is.
    case settings(speed: Double, volumePercent: Double, place: Place)
    /// The output chosen; `playing`: the book loaded switched to it (else the next book will use it).
    case output(String, playing: Bool)
    case status(Status)
    /// The sleep timer now: "12:34 left", "end of chapter"...; nil when off.
    case sleepTimer(String?)
    case queue([Book])
    case queued(Book, count: Int)
    case alreadyQueued(Book)
    case queueMoved(from: Int, to: Int)
    /// The book that was at `position` (1-based, as listed) left the queue.
    case unqueued(position: Int, bookId: Int64, title: String)
    case queueCleared
    case repeatMode(RepeatMode)
    case shuffle(Bool)
    /// Auto-rewind: nil when off, else the most it goes back.
    case rewind(maxSeconds: Double?)
    /// Skip silence for the book loaded, whether it is the book's own (else the default), and
    /// the source seconds it saved in the book so far.
    case skipSilence(SkipSilence, ownSetting: Bool, savedSeconds: Double)
    /// Intro and outro skipping for the book loaded.
    case introOutro(IntroOutro)
    case stopped(book: String, reason: String)
    case sync(SyncOutcome)
    /// Where a book stands with its loudness (`loudness`).
    case loudness(LoudnessReport)
}

/// A chapter of a book as `chapters` lists it. Times are seconds; nil where unknown.
public struct ChapterListing: Sendable, Equatable {
    public let title: String
    /// Where it starts in the book.
    public let start: Double?
    public let length: Double?
    /// A file of a many-file book standing as a chapter (it has none of its own).
    public let isWholeItem: Bool
    /// The listener's own chapter (`chapter add`, `chapters detect`), not the files'.
    public var isUsers = false
}
