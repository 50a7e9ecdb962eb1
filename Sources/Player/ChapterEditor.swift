import Library
import PlayerCore

/// The listener's own chapters: made, renamed, removed, detected or dropped. They are kept in
/// the library as the book's (the files are never written) and replace the files' chapters; the
/// session loaded (when it is the book edited) takes them at once.
struct ChapterEditor {
    let library: LibraryDatabase
    /// The book loaded, if any.
    let session: PlayerSession?

    func edit(_ edit: ChapterEdit) throws -> PlayerOutcome {
        switch edit {
        case let .add(seconds, title): return .chapterEdited(try addChapter(at: seconds, title: title))
        case let .rename(number, title):
            let session = try playing()
            var starts = Self.starts(of: session.timeline)
            guard starts.indices.contains(number - 1) else { throw noChapter(number, in: session) }
            starts[number - 1].title = title
            try storeChapters(starts, of: session)
            return .chapterEdited(.renamed(number: number, title: title))
        case let .remove(number):
            let session = try playing()
            var starts = Self.starts(of: session.timeline)
            guard starts.indices.contains(number - 1) else { throw noChapter(number, in: session) }
            let start = session.timeline.span(ofChapter: number - 1).start
            let removed = starts.remove(at: number - 1)
            try storeChapters(starts, of: session)
            return .chapterEdited(.removed(number: number, start: start, title: removed.title, count: starts.count))
        case let .reset(bookId):
            let (book, media) = try bookAndItems(bookId)
            try library.books.replaceUserChapters(ofBook: book.id!, with: [])
            refreshChapters(ofBook: book.id!, to: [])
            return .chapterEdited(.reset(book: book.title, count: BookTimeline(media: media).chapters.count))
        case let .store(bookId, places):
            let (book, media) = try bookAndItems(bookId)
            let starts = places.enumerated().compactMap { number, place in
                media.indices.contains(place.item)
                    ? UserChapterStart(mediaId: media[place.item].id!, frame: place.frame, title: "Chapter \(number + 1)") : nil
            }
            let stored = try library.books.replaceUserChapters(ofBook: book.id!, with: starts)
            refreshChapters(ofBook: book.id!, to: stored)
            return .chapterEdited(.stored(book: book.title, count: stored.count))
        }
    }

    private func addChapter(at seconds: Double?, title: String) throws -> ChapterChange {
        let session = try playing()
        let timeline = session.timeline
        var place = session.position
        if let seconds {
            guard let found = timeline.position(atBookSeconds: seconds) else {
                throw PlayerError("\(Timecode.format(seconds: seconds)) is past the end of \(session.book.title) "
                    + "(\(Timecode.format(seconds: timeline.totalSeconds))): give a time in the book")
            }
            place = found
        }
        guard let mediaId = timeline.items[place.item].mediaId else { throw PlayerError("\(session.book.title) is not in the library") }
        var starts = Self.starts(of: timeline)
        if starts.contains(where: { $0.mediaId == mediaId && $0.frame == place.frame }) {
            throw PlayerError("there is already a chapter at \(Timecode.format(seconds: timeline.bookSeconds(place))): "
                + "'chapter rename N TITLE' renames it")
        }
        starts.append(UserChapterStart(mediaId: mediaId, frame: place.frame, title: title))
        try storeChapters(starts, of: session)
        let chapters = session.timeline.chapters
        let index = chapters.firstIndex { $0.item == place.item && $0.startFrame == place.frame } ?? chapters.count - 1
        return .added(number: index + 1, start: timeline.bookSeconds(place), title: title, count: chapters.count)
    }

    /// The chapter list as it stands, to be edited and stored whole: the listener's own, or on a
    /// first edit the files' (a file of a many-file book standing as a chapter included).
    private func playing() throws -> PlayerSession {
        guard let session else { throw PlayerError("nothing is playing: 'play BOOK' first") }
        return session
    }

    private static func starts(of timeline: BookTimeline) -> [UserChapterStart] {
        timeline.chapters.compactMap { chapter in
            timeline.items[chapter.item].mediaId.map { UserChapterStart(mediaId: $0, frame: chapter.startFrame, title: chapter.title) }
        }
    }

    private func storeChapters(_ starts: [UserChapterStart], of session: PlayerSession) throws {
        session.timeline.userChapters = try library.books.replaceUserChapters(ofBook: session.book.id!, with: starts)
    }

    private func refreshChapters(ofBook bookId: Int64, to chapters: [UserChapter]) {
        if let session, session.book.id == bookId { session.timeline.userChapters = chapters }
    }

    private func bookAndItems(_ bookId: Int64?) throws -> (Book, [Media]) {
        if let session, bookId == nil || bookId == session.book.id {
            return (session.book, try library.books.items(ofBook: session.book.id!))
        }
        guard let bookId else { throw PlayerError("nothing is playing: name a book") }
        return (try library.books.book(matching: "#\(bookId)"), try library.books.items(ofBook: bookId))
    }

    private func noChapter(_ number: Int, in session: PlayerSession) -> PlayerError {
        let count = session.timeline.chapters.count
        guard count > 0 else { return PlayerError("\(session.book.title) has no chapters: 'chapter add [TIME] TITLE' makes one") }
        return PlayerError("there is no chapter \(number) in \(session.book.title): use 1–\(count) ('chapters' lists them)")
    }
}
