import Player
public import Library

/// What a command did, as data: the reply to a JSON request carries one per command run
/// (`outcomes`), so a script reads the book, place, bookmark or setting it changed instead of
/// parsing the REPL's words. `kind` names the outcome (`moved`, `started`, `bookmarked`,
/// `settings`...); the fields it has are set, the others absent.
public struct TypedOutcome: Codable, Equatable, Sendable {
    public var kind: String
    public var book: String?
    public var bookId: Int64?
    /// 1-based, as everything the listener sees.
    public var item: Int?
    public var itemCount: Int?
    /// The place in the whole book, and in its chapter (numbered from 1).
    public var bookSeconds: Double?
    public var chapter: Int?
    public var chapterTitle: String?
    public var chapterSeconds: Double?
    public var output: String?
    public var speed: Double?
    public var volume: Double?
    /// The bookmark's number in its book's list ("3", "a3": what `jump` and `bookmark rm` take),
    /// and its library id (stable while numbers move as bookmarks come and go).
    public var bookmarkNumber: BookmarkNumber?
    public var bookmark: Int64?
    public var note: String?
    /// A setting's state in words: the sleep timer, the repeat mode, on/off; for `defaults`,
    /// the one just set.
    public var setting: String?
    public var count: Int?
    public var reason: String?
    /// The lists and settings, for the outcomes that show them (`TypedOutcome+Lists.swift`).
    public var chapters: [Chapter]?
    public var bookmarks: [Bookmark]?
    public var books: [QueuedBook]?
    public var defaults: Defaults?
    /// A queue move's places, from 1.
    public var from: Int?
    public var to: Int?

    init(kind: String) { self.kind = kind }

    init(_ outcome: PlayerOutcome) {
        switch outcome {
        case .done: self.init(kind: "done")
        case let .moved(place): self.init(kind: "moved", place)
        case let .paused(place): self.init(kind: "paused", place)
        case let .resumed(place): self.init(kind: "resumed", place)
        case let .undone(place): self.init(kind: "undone", place)
        case let .started(book, seconds, item, count, output):
            self.init(kind: "started", book: book, seconds: seconds, item: item, itemCount: count)
            self.output = output
        case let .cued(book, seconds, item, count):
            self.init(kind: "cued", book: book, seconds: seconds, item: item, itemCount: count)
        case let .chapters(book, chapters, current):
            self.init(kind: "chapters")
            self.book = book
            count = chapters.count
            chapter = current.map { $0 + 1 }
            self.chapters = Self.chapters(chapters)
        case let .chapterEdited(change):
            self.init(kind: "chapterEdited")
            reason = change.text
        case let .bookmarked(place): self.init(kind: "bookmarked", place)
        case let .bookmarks(book, places):
            self.init(kind: "bookmarks")
            self.book = book
            count = places.count
            bookmarks = places.map(Bookmark.init)
        case let .jumpedToBookmark(mark, place):
            self.init(kind: "jumpedToBookmark", place)
            bookmarkNumber = mark.number
            bookmark = mark.id
            note = mark.note
        case let .bookmarkRemoved(place, _): self.init(kind: "bookmarkRemoved", place)
        case let .bookmarkNoted(place): self.init(kind: "bookmarkNoted", place)
        case let .defaults(defaults, changed):
            self.init(kind: "defaults")
            self.defaults = Defaults(defaults)
            setting = changed?.rawValue
        case let .settings(speed, volume, place):
            self.init(kind: "settings", place)
            self.speed = speed
            self.volume = volume
        case let .output(name, _):
            self.init(kind: "output")
            output = name
        case .status: self.init(kind: "status")
        case let .sleepTimer(description):
            self.init(kind: "sleepTimer")
            setting = description ?? "off"
        case let .queue(books):
            self.init(kind: "queue")
            count = books.count
            self.books = Self.queue(books)
        case let .queued(book, count):
            self.init(kind: "queued")
            self.book = book.title
            bookId = book.id
            self.count = count
        case let .alreadyQueued(book):
            self.init(kind: "alreadyQueued")
            self.book = book.title
            bookId = book.id
        case let .queueMoved(from, to):
            self.init(kind: "queueMoved")
            self.from = from
            self.to = to
        case let .unqueued(position, id, title):
            self.init(kind: "unqueued")
            from = position
            bookId = id
            book = title
        case .queueCleared: self.init(kind: "queueCleared")
        case let .repeatMode(mode):
            self.init(kind: "repeat")
            setting = mode.rawValue
        case let .shuffle(on):
            self.init(kind: "shuffle")
            setting = on ? "on" : "off"
        case let .rewind(seconds):
            self.init(kind: "rewind")
            setting = seconds.map { "auto \(Int($0))" } ?? "off"
        case let .skipSilence(setting, _, _):
            self.init(kind: "skipSilence")
            self.setting = SkipSilenceText.text(setting)
        case let .introOutro(setting):
            self.init(kind: "introOutro")
            self.setting = setting.text
        case let .stopped(book, reason):
            self.init(kind: "stopped")
            self.book = book
            self.reason = reason
        case let .loudness(report):
            self.init(kind: "loudness")
            book = report.book
            reason = report.text
        case let .sync(outcome):
            self.init(kind: "sync")
            setting = Self.syncSetting(outcome)
            if case let .status(_, books, _) = outcome { count = books.count }
        }
    }

    private init(kind: String, _ place: Place) {
        self.init(kind: kind)
        bookSeconds = place.bookSeconds
        chapter = place.chapter?.number
        chapterTitle = place.chapter?.title
        chapterSeconds = place.chapter?.seconds
    }

    private init(kind: String, _ mark: BookmarkPlace) {
        self.init(kind: kind)
        bookmarkNumber = mark.number
        bookmark = mark.id
        bookSeconds = mark.seconds
        item = mark.item.map { $0 + 1 }
        itemCount = mark.itemCount
        chapter = mark.chapterNumber
        chapterTitle = mark.chapterTitle
        note = mark.note
    }

    private init(kind: String, book: Book, seconds: Double?, item: Int, itemCount: Int) {
        self.init(kind: kind)
        self.book = book.title
        bookId = book.id
        bookSeconds = seconds
        self.item = item + 1
        self.itemCount = itemCount
    }
}
