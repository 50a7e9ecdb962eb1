public import PlayerCore

/// A change to a book's own chapters (`chapter add/rename/rm`, `chapters reset`, `chapters
/// detect`). Chapters are numbered from 1 as `chapters` lists them. The first change to a book
/// whose chapters come from its files starts from those chapters: fixing one title keeps the rest.
public enum ChapterEdit: Equatable, Sendable {
    /// A chapter starting `seconds` into the book loaded; nil: at the place heard now.
    case add(seconds: Double?, title: String)
    case rename(number: Int, title: String)
    case remove(number: Int)
    /// The book's own chapters dropped: its files' chapters are its chapters again. Nil: the book loaded.
    case reset(bookId: Int64?)
    /// The book's chapters replaced by chapters starting at these places, titled "Chapter 1",
    /// "Chapter 2"... (what `chapters detect` found). Nil: the book loaded.
    case store(bookId: Int64?, starts: [PlaybackPosition])
}

/// What a `ChapterEdit` did. Times are seconds into the book; nil where unknown.
public enum ChapterChange: Equatable, Sendable {
    case added(number: Int, start: Double?, title: String, count: Int)
    case renamed(number: Int, title: String)
    case removed(number: Int, start: Double?, title: String, count: Int)
    /// `count`: the chapters the book has from its files now.
    case reset(book: String, count: Int)
    case stored(book: String, count: Int)

    /// The REPL's line for it.
    public var text: String {
        switch self {
        case let .added(number, start, title, count):
            return "added chapter \(number) of \(count) at \(Timecode.format(seconds: start)): \(title) (your chapters; 'chapter rm \(number)' removes it)"
        case let .renamed(number, title): return "chapter \(number) is now: \(title)"
        case let .removed(number, start, title, count):
            let left = count == 0 ? "none of yours left: the files' chapters are back" : "\(count) left"
            return "removed chapter \(number) at \(Timecode.format(seconds: start)): \(title) (\(left))"
        case let .reset(book, count):
            return "\(book): your chapters dropped; \(count == 0 ? "no chapters from its files" : "\(count) chapter\(count == 1 ? "" : "s") from its files")"
        case let .stored(book, count):
            return "\(book): stored \(count) chapter\(count == 1 ? "" : "s") as yours ('chapter rename N TITLE' names them, 'chapters reset' drops them)"
        }
    }
}
