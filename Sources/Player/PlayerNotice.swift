public import Library
import PlayerCore

/// Something the player tells the listener without being asked: what the engine reported, what
/// the sleep timer and the queue did. Every front end shows these through `text`, so a lost
/// output reads the same in the REPL, `listen` and a socket client's events.
public enum PlayerNotice: Sendable, Equatable {
    /// A book was loaded and plays from `seconds` into it (nil: unknown) through `output`.
    case started(book: Book, seconds: Double?, item: Int, itemCount: Int, output: String)
    /// The first sound of a book just loaded, `seconds` into its item `item` (0-based).
    case heard(book: Book, item: Int, seconds: Double)
    case itemFailed(item: Int, title: String, reason: String)
    /// A file of the book being loaded is missing (the library found it gone): the rest plays.
    case fileMissing(book: String, path: String)
    /// The book played to its end (marked finished); `startsAgain`: `play` starts it over,
    /// nothing being queued to follow it.
    case ended(book: String, startsAgain: Bool)
    /// `play` at the end of a book: from its start again.
    case playingAgain(book: String)
    case outputLost(String)
    /// The output would not open before anything played (no server yet): the place is kept
    /// and it is tried again with backoff; `outputRestored` when it opens.
    case outputUnavailable(String)
    case outputRestored
    /// The server moved the stream (headphones unplugged): paused until `play`.
    case outputMoved(String)
    case outputChanged(String)
    /// No output was named and none answered: the book plays to the fallback this says.
    case noOutputAnswered(String)
    /// The book loaded was stopped, its place saved, for a library edit (`LibraryEdit`).
    case stopped(book: String, reason: String)
    /// The book loaded was stopped for a library edit and loaded again at its place (`seconds`
    /// into the book), playing again if it was.
    case reloaded(book: String, reason: String, playing: Bool, seconds: Double?)
    /// Auto-rewind went back this many seconds on resume.
    case rewound(seconds: Double)
    /// The sleep timer faded out and paused here (seconds into the book), bookmarked.
    case sleepPaused(at: Double?)
    case sleepTimerOff
    /// The book ended and the queue's first book is next.
    case queueNext(Book)
    /// Something went wrong in the background (saving the position, the queue, a bookmark).
    case problem(String)
    /// What an exchange with the sync folder changed here, or offers (`SyncText`'s lines).
    case synced(String)
    /// A book's loudness, measured in the background.
    case loudnessMeasured(LoudnessReport)
    /// Playing went on into chapter `number` (from 1) of `count` by itself: not a jump, which
    /// the listener's command is answered for.
    case chapterStarted(number: Int, count: Int, title: String)
    /// The sleep timer's countdown has `secondsLeft` (a minute) to go: said once per countdown
    /// that runs that long, so a listener who hears no screen can say `sleep +15m` in time.
    case sleepTimerEnding(secondsLeft: Double)

    public var text: String {
        switch self {
        case let .started(book, seconds, item, itemCount, output):
            "playing #\(book.id!) \(book.title) from \(Timecode.format(seconds: seconds)) (item \(item + 1)/\(itemCount)) through \(output)"
        case let .heard(book, item, seconds):
            "playing #\(book.id!) \(book.title) from item \(item + 1) at \(String(format: "%.3f", seconds)) s"
        case let .itemFailed(item, title, reason): "item \(item + 1) (\(title)): \(reason); skipped"
        case let .fileMissing(book, path):
            "\(book): \(path) is missing; if it moved, 'rescan FOLDER' (in the REPL, or 'abplayer rescan FOLDER') with the folder it is in now finds it; skipped meanwhile, the rest plays"
        case let .ended(book, startsAgain): "\(book): the end" + (startsAgain ? " (finished); 'play' or space starts it again" : "")
        case let .playingAgain(book): "\(book): from the start again"
        case let .outputLost(message): "output lost: \(message); paused (position saved), resuming when it is back"
        case let .outputUnavailable(message): "output unavailable: \(message); waiting for it with the place kept (tried again until it opens)"
        case .outputRestored: "output back; playing on"
        case let .outputMoved(message): "\(message); paused: 'play' continues"
        case let .outputChanged(name): "now playing through \(name)"
        case let .noOutputAnswered(warning): warning
        case let .stopped(book, reason): "stopped \(book) (position saved): \(reason)"
        case let .reloaded(book, reason, playing, seconds):
            "\(book): \(reason); \(playing ? "playing on" : "paused") at \(Timecode.format(seconds: seconds))"
        case let .rewound(seconds): "rewound \(String(format: seconds < 10 ? "%.1f" : "%.0f", seconds)) s"
        case let .sleepPaused(at): "sleep timer: paused at \(Timecode.format(seconds: at)) (bookmarked)"
        case .sleepTimerOff: "sleep timer off"
        case let .queueNext(book): "queue: next up #\(book.id!) \(book.title)"
        case let .problem(text): text
        case let .synced(text): text
        case let .loudnessMeasured(report): report.text
        case let .chapterStarted(number, _, title): "chapter \(number): \(title)"
        case let .sleepTimerEnding(seconds):
            seconds.rounded() == 60 ? "sleep timer: 1 minute left" : "sleep timer: \(Timecode.format(seconds: seconds)) left"
        }
    }

    /// Whether only a face that announces what a screen would show says it (plain mode: a
    /// screen reader's listener has no screen); elsewhere the player screen shows it already.
    public var isAnnouncement: Bool {
        switch self {
        case .chapterStarted, .sleepTimerEnding: true
        default: false
        }
    }

    /// Whether it reports a failure (standard error on a terminal).
    public var isProblem: Bool {
        switch self {
        case .problem, .outputUnavailable, .noOutputAnswered, .fileMissing: true
        default: false
        }
    }
}
