import Library
import PlayerCore

/// Bookmarks: making one, listing them, going to one (an undo point like any jump), removing
/// one and changing its note; in the book loaded (`session`) or any book of the library.
struct BookmarkCommands {
    let library: LibraryDatabase
    /// The book loaded, if any.
    let session: PlayerSession?

    func perform(_ command: PlayerCommand) throws -> PlayerOutcome? {
        switch command {
        case let .bookmark(note): try bookmark(note: note)
        case let .bookmarks(bookId, all): try bookmarks(ofBook: bookId, all: all)
        case let .gotoBookmark(id): try gotoBookmark(id)
        case let .removeBookmark(id): try removeBookmark(id)
        case let .noteBookmark(id, note): try noteBookmark(id, note: note)
        default: nil
        }
    }

    private func playing() throws -> PlayerSession {
        guard let session else { throw PlayerError("nothing is playing: 'play BOOK' first") }
        return session
    }

    func bookmark(note: String?) throws -> PlayerOutcome {
        let session = try playing()
        let here = session.position
        let mark = try library.bookmarks.add(bookId: session.book.id!, mediaId: session.mediaIds[here.item], frame: here.frame,
                                             kind: .user, note: note)
        return .bookmarked(place(of: mark, in: session))
    }

    /// The bookmarks of `bookId`, or of the book loaded (its timeline as heard: chapters found on
    /// opening count) when nil.
    func bookmarks(ofBook bookId: Int64?, all: Bool) throws -> PlayerOutcome {
        if let bookId, bookId != session?.book.id {
            let book = try library.books.book(matching: "#\(bookId)")
            return .bookmarks(book: book.title, try BookmarkPlace.places(ofBook: bookId, in: library, all: all))
        }
        let session = try playing()
        let marks = try library.bookmarks.all(ofBook: session.book.id!, includeAutomatic: all)
        return .bookmarks(book: session.book.title,
                          BookmarkPlace.places(marks, timeline: session.timeline, mediaIds: session.mediaIds))
    }

    /// Goes to bookmark `id` of the book loaded. A bookmark of another book is refused, naming
    /// that book, rather than loading it: `jump N` moves within what is heard, and a mistyped id
    /// silently switching books would lose the listener's bearings (`play BOOK` then `jump N` does it).
    func gotoBookmark(_ id: Int64) throws -> PlayerOutcome {
        let session = try playing()
        guard let mark = try library.bookmarks.bookmark(id: id) else { throw try unknownBookmark(id, of: session) }
        guard mark.bookId == session.book.id else {
            let owner = try library.books.book(matching: "#\(mark.bookId)")
            throw PlayerError("bookmark #\(id) is in #\(owner.id!) \(owner.title), not in \(session.book.title): "
                + "'play #\(owner.id!)' first, then 'jump \(id)'")
        }
        guard let item = session.mediaIds.firstIndex(of: mark.mediaId) else {
            throw PlayerError("bookmark #\(id) is in a file no longer in \(session.book.title); 'bookmark rm \(id)' removes it")
        }
        session.jump(to: PlaybackPosition(item: item, frame: mark.frame), kind: .beforeBookmarkJump)
        return .jumpedToBookmark(place(of: mark, in: session), place: Place(session))
    }

    func removeBookmark(_ id: Int64) throws -> PlayerOutcome {
        let place = try anyBookmark(id)
        try library.bookmarks.delete(id: id)
        return .bookmarkRemoved(place)
    }

    func noteBookmark(_ id: Int64, note: String?) throws -> PlayerOutcome {
        _ = try anyBookmark(id)
        try library.bookmarks.updateNote(id: id, note: note)
        return .bookmarkNoted(try anyBookmark(id))
    }

    /// Bookmark `id` of any book (ids are the library's, so `bookmark rm N` needs nothing loaded).
    private func anyBookmark(_ id: Int64) throws -> BookmarkPlace {
        guard let mark = try library.bookmarks.bookmark(id: id) else {
            if let session { throw try unknownBookmark(id, of: session) }
            throw PlayerError("there is no bookmark #\(id): 'bookmarks BOOK' lists a book's bookmarks")
        }
        if let session, mark.bookId == session.book.id { return place(of: mark, in: session) }
        let media = try library.books.items(ofBook: mark.bookId)
        let timeline = BookTimeline(media: media, userChapters: try library.books.userChapters(ofBook: mark.bookId))
        return BookmarkPlace(mark, timeline: timeline, mediaIds: media.map { $0.id! })
    }

    private func place(of mark: Bookmark, in session: PlayerSession) -> BookmarkPlace {
        BookmarkPlace(mark, timeline: session.timeline, mediaIds: session.mediaIds)
    }

    /// "no bookmark #9 in Walk: its bookmarks are #1, #4 ('bookmarks' lists them)".
    private func unknownBookmark(_ id: Int64, of session: PlayerSession) throws -> PlayerError {
        let ids = try library.bookmarks.all(ofBook: session.book.id!, includeAutomatic: false).map { "#\($0.id!)" }
        guard !ids.isEmpty else {
            return PlayerError("no bookmark #\(id) in \(session.book.title), which has none: 'bookmark [NOTE]' makes one "
                + "('bookmarks --all' lists the automatic ones)")
        }
        return PlayerError("no bookmark #\(id) in \(session.book.title): its bookmarks are \(ids.joined(separator: ", ")) "
            + "('bookmarks' lists them, 'bookmarks --all' with the automatic ones)")
    }
}
