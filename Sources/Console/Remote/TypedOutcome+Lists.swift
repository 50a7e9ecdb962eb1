import Player
public import Library

/// The lists and settings a JSON reply carries as data: a program reads the chapters, the
/// bookmarks, the queue and the defaults from the outcome instead of parsing the REPL's lines.
extension TypedOutcome {
    /// A chapter as `chapters` lists it (numbered from 1; times in seconds into the book).
    public struct Chapter: Codable, Equatable, Sendable {
        public var number: Int
        public var title: String
        public var start: Double?
        public var length: Double?
        /// The listener's own chapter (`chapter add`), not the files'.
        public var isUsers: Bool
    }

    /// A bookmark as `bookmarks` lists it: its number (what `jump` and `bookmark rm` take: "3",
    /// or "a3" for an automatic one), its library id (stable while numbers move), its kind
    /// (`user`, or an automatic one such as `beforeSeek`), where it is, and its note.
    public struct Bookmark: Codable, Equatable, Sendable {
        public var number: BookmarkNumber
        public var id: Int64
        public var kind: String
        public var bookSeconds: Double?
        /// 1-based; nil when its file is no longer one of the book's.
        public var item: Int?
        public var chapter: Int?
        public var chapterTitle: String?
        public var note: String?

        init(_ mark: BookmarkPlace) {
            number = mark.number
            id = mark.id
            kind = mark.kind.rawValue
            bookSeconds = mark.seconds
            item = mark.item.map { $0 + 1 }
            chapter = mark.chapterNumber
            chapterTitle = mark.chapterTitle
            note = mark.note
        }
    }

    /// A book of the queue, in the order it will play (`position` from 1, as `queue rm N` takes).
    public struct QueuedBook: Codable, Equatable, Sendable {
        public var position: Int
        public var bookId: Int64?
        public var title: String
        public var author: String?
    }

    /// The listener's defaults (`set`): nil where none is set. Times in seconds; skip silence's
    /// shortest silence in milliseconds, 0 when set off.
    public struct Defaults: Codable, Equatable, Sendable {
        public var speed: Double?
        public var skipSeconds: Double?
        /// Auto-rewind's most; nil: auto-rewind off.
        public var rewindMaxSeconds: Double?
        public var sleepSeconds: Double?
        public var skipSilenceMs: Int?
        public var loudness: Bool?
        public var loudnessTargetLUFS: Double?
        /// Seconds left out at the start and the end of every item; 0 when set off.
        public var introSeconds: Double?
        public var outroSeconds: Double?

        init(_ defaults: ListenerDefaults) {
            speed = defaults.speed
            skipSeconds = defaults.skipSeconds
            rewindMaxSeconds = defaults.rewindMaxSeconds
            sleepSeconds = defaults.sleepSeconds
            skipSilenceMs = defaults.skipSilence.map { if case let .on(minimumMs) = $0 { minimumMs } else { 0 } }
            loudness = defaults.loudness
            loudnessTargetLUFS = defaults.loudnessTargetLUFS
            introSeconds = defaults.introSeconds
            outroSeconds = defaults.outroSeconds
        }
    }

    static func chapters(_ listings: [ChapterListing]) -> [Chapter] {
        listings.enumerated().map { index, listing in
            Chapter(number: index + 1, title: listing.title, start: listing.start, length: listing.length, isUsers: listing.isUsers)
        }
    }

    static func queue(_ books: [Book]) -> [QueuedBook] {
        books.enumerated().map { index, book in
            QueuedBook(position: index + 1, bookId: book.id, title: book.title, author: book.author)
        }
    }

    /// What `sync` did, in words: the folder synced through, or whether it jumps on start.
    static func syncSetting(_ outcome: SyncOutcome) -> String? {
        switch outcome {
        case let .folder(settings): settings.folder ?? "off"
        case let .jumpOnStart(settings): settings.jumpOnStart ? "auto-jump on" : "auto-jump off"
        case let .name(settings): settings.deviceName
        case .status, .exchanged: nil
        }
    }
}
