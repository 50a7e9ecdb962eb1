public import Library
import PlayerCore

/// A bookmark where it is in its book: seconds into the book, the chapter (or item) it is in,
/// its kind and note. Every front end shows its time through `time`, so the time said when a
/// bookmark is made and the time listed later are the same string (one rounding rule).
public struct BookmarkPlace: Sendable, Equatable {
    /// What the listener calls it: its place in the book's list (`BookmarkNumber`).
    public let number: BookmarkNumber
    /// The library's id: stable while numbers move, for programs (JSON); never shown to a listener.
    public let id: Int64
    public let kind: BookmarkKind
    /// Seconds into the book; nil when an earlier item's length is unknown.
    public let seconds: Double?
    /// The item it is in (0-based); nil when its file is no longer one of the book's items.
    public let item: Int?
    public let itemCount: Int
    /// The chapter it is in (1-based) and its title; nil in a book without chapters or before the first.
    public let chapterNumber: Int?
    public let chapterTitle: String?
    public let note: String?

    /// The time as the player's clock shows it: whole seconds, truncated (`Timecode.format`),
    /// "--:--" when unknown. The one rule for a bookmark's time, made or listed.
    public var time: String { Timecode.format(seconds: seconds) }

    /// "chapter 2: The Duel", "item 3", or nil (a one-item book without chapters).
    public var placeInBook: String? {
        if let chapterNumber, let chapterTitle { return "chapter \(chapterNumber): \(chapterTitle)" }
        guard let item else { return "item ?" }
        return itemCount > 1 ? "item \(item + 1)" : nil
    }

    /// "3  1:02:03  chapter 2: The Duel  the note", an automatic one "a3  1:02:03  chapter 2: The
    /// Duel  before a seek": one line of `bookmarks` (titles and notes as they are; the terminal's
    /// front end makes them visible). The listener's own say no kind: a screen reader would
    /// speak "user" on every line.
    public var line: String {
        ([number.description, time] + [placeInBook, kind.isAutomatic ? kind.words : nil, note].compactMap { $0 })
            .joined(separator: "  ")
    }

    public init(number: BookmarkNumber, id: Int64, kind: BookmarkKind, seconds: Double?, item: Int?, itemCount: Int, chapterNumber: Int? = nil,
                chapterTitle: String? = nil, note: String? = nil) {
        self.number = number
        self.id = id
        self.kind = kind
        self.seconds = seconds
        self.item = item
        self.itemCount = itemCount
        self.chapterNumber = chapterNumber
        self.chapterTitle = chapterTitle
        self.note = note
    }

    init(_ numbered: NumberedBookmark, timeline: BookTimeline, mediaIds: [Int64]) {
        let bookmark = numbered.bookmark
        number = numbered.number
        id = bookmark.id!
        kind = bookmark.kind
        note = bookmark.note
        itemCount = timeline.items.count
        item = mediaIds.firstIndex(of: bookmark.mediaId)
        let position = item.map { PlaybackPosition(item: $0, frame: bookmark.frame) }
        seconds = position.flatMap { timeline.bookSeconds($0) }
        let chapter = position.flatMap { timeline.chapterIndex(at: $0) }
        chapterNumber = chapter.map { $0 + 1 }
        chapterTitle = chapter.map { timeline.chapters[$0].title }
    }

    /// The bookmarks of a book that is not loaded (or from a front end with no player:
    /// `abplayer bookmarks BOOK`), numbered in the book's order; `all`: the automatic ones too.
    public static func places(ofBook bookId: Int64, in library: LibraryDatabase, all: Bool) throws -> [BookmarkPlace] {
        let media = try library.books.items(ofBook: bookId)
        return try places(library.bookmarks.numbered(ofBook: bookId), all: all,
                          timeline: BookTimeline(media: media, userChapters: try library.books.userChapters(ofBook: bookId)), mediaIds: media.map { $0.id! })
    }

    static func places(_ bookmarks: [NumberedBookmark], all: Bool, timeline: BookTimeline, mediaIds: [Int64]) -> [BookmarkPlace] {
        bookmarks.filter { all || !$0.number.isAutomatic }.map { BookmarkPlace($0, timeline: timeline, mediaIds: mediaIds) }
    }
}
