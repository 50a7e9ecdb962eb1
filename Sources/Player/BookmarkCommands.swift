import Library
import PlayerCore

/// Bookmarks: making one, listing them, going to one (an undo point like any jump), removing
/// one and changing its note. A bookmark is named by its number in the book loaded's list
/// (`BookmarkNumber`: 1, 2... the listener's own, a1, a2... the automatic ones), the one
/// numbering every front end shows and takes; `bookmarks BOOK` lists any book's.
struct BookmarkCommands {
    let library: LibraryDatabase
    /// The book loaded, if any.
    let session: PlayerSession?

    func perform(_ command: PlayerCommand) throws -> PlayerOutcome? {
        switch command {
        case let .bookmark(note): try bookmark(note: note)
        case let .bookmarks(bookId, all): try bookmarks(ofBook: bookId, all: all)
        case let .gotoBookmark(number): try gotoBookmark(number)
        case let .removeBookmark(number): try removeBookmark(number)
        case let .noteBookmark(number, note): try noteBookmark(number, note: note)
        default: nil
        }
    }

    private func playing() throws -> PlayerSession {
        guard let session else { throw PlayerError("nothing is playing: 'play BOOK' first") }
        return session
    }

    /// Makes a bookmark here; it is answered with the number it has in the list now.
    func bookmark(note: String?) throws -> PlayerOutcome {
        let session = try playing()
        let here = session.position
        let mark = try library.bookmarks.add(bookId: session.book.id!, mediaId: session.mediaIds[here.item], frame: here.frame,
                                             kind: .user, note: note)
        guard let numbered = try library.bookmarks.numbered(ofBook: session.book.id!).first(where: { $0.bookmark.id == mark.id }) else {
            throw PlayerError("the bookmark just made in \(session.book.title) is gone (removed by another program?)")
        }
        return .bookmarked(place(of: numbered, in: session))
    }

    /// The bookmarks of `bookId`, or of the book loaded (its timeline as heard: chapters found on
    /// opening count) when nil.
    func bookmarks(ofBook bookId: Int64?, all: Bool) throws -> PlayerOutcome {
        if let bookId, bookId != session?.book.id {
            let book = try library.books.book(matching: "#\(bookId)")
            return .bookmarks(book: book.title, try BookmarkPlace.places(ofBook: bookId, in: library, all: all))
        }
        let session = try playing()
        return .bookmarks(book: session.book.title,
                          BookmarkPlace.places(try library.bookmarks.numbered(ofBook: session.book.id!), all: all,
                                               timeline: session.timeline, mediaIds: session.mediaIds))
    }

    /// Goes to bookmark `number` of the book loaded.
    func gotoBookmark(_ number: BookmarkNumber) throws -> PlayerOutcome {
        let (session, mark) = try bookmark(number, command: "jump")
        guard let item = session.mediaIds.firstIndex(of: mark.bookmark.mediaId) else {
            throw PlayerError("bookmark \(number) is in a file no longer in \(session.book.title); 'bookmark rm \(number)' removes it")
        }
        session.jump(to: PlaybackPosition(item: item, frame: mark.bookmark.frame), kind: .beforeBookmarkJump)
        // Said with the number the listener chose it by, though the automatic bookmark the jump
        // left may renumber the automatic ones.
        return .jumpedToBookmark(place(of: mark, in: session), place: Place(session))
    }

    func removeBookmark(_ number: BookmarkNumber) throws -> PlayerOutcome {
        let (session, mark) = try bookmark(number, command: "bookmark rm")
        let removed = place(of: mark, in: session)
        try library.bookmarks.delete(id: mark.bookmark.id!)
        let moved = try library.bookmarks.numbered(ofBook: session.book.id!).filter { $0.number.isAutomatic == number.isAutomatic }
            .count - (number.index - 1)
        return .bookmarkRemoved(removed, moved: max(0, moved))
    }

    func noteBookmark(_ number: BookmarkNumber, note: String?) throws -> PlayerOutcome {
        let (session, mark) = try bookmark(number, command: "bookmark note")
        try library.bookmarks.updateNote(id: mark.bookmark.id!, note: note)
        guard let noted = try library.bookmarks.numbered(ofBook: session.book.id!).first(where: { $0.bookmark.id == mark.bookmark.id }) else {
            throw try unknownBookmark(number, of: session)
        }
        return .bookmarkNoted(place(of: noted, in: session))
    }

    /// Bookmark `number` of the book loaded; an unknown number is refused naming the right ones.
    private func bookmark(_ number: BookmarkNumber, command: String) throws -> (PlayerSession, NumberedBookmark) {
        guard let session else {
            throw PlayerError("nothing is playing: bookmark numbers are a book's, so 'play BOOK' first, then '\(command) \(number)'")
        }
        guard let mark = try library.bookmarks.bookmark(number, ofBook: session.book.id!) else {
            throw try unknownBookmark(number, of: session)
        }
        return (session, mark)
    }

    private func place(of mark: NumberedBookmark, in session: PlayerSession) -> BookmarkPlace {
        BookmarkPlace(mark, timeline: session.timeline, mediaIds: session.mediaIds)
    }

    /// "no bookmark 9 in Walk: its bookmarks are 1 to 4 ('bookmarks' lists them...)"; for an
    /// automatic number, the automatic ones (a1 to a6).
    private func unknownBookmark(_ number: BookmarkNumber, of session: PlayerSession) throws -> PlayerError {
        let marks = try library.bookmarks.numbered(ofBook: session.book.id!).filter { $0.number.isAutomatic == number.isAutomatic }
        let title = session.book.title
        if number.isAutomatic {
            guard let last = marks.last?.number else {
                return PlayerError("no bookmark \(number) in \(title), which has no automatic ones (they are left before a seek or a jump)")
            }
            return PlayerError("no bookmark \(number) in \(title): its automatic bookmarks are \(Self.range(to: last)) ('bookmarks --all' lists them)")
        }
        guard let last = marks.last?.number else {
            return PlayerError("no bookmark \(number) in \(title), which has none: 'bookmark [NOTE]' makes one "
                + "('bookmarks --all' lists the automatic ones, a1, a2...)")
        }
        let which = marks.count == 1 ? "its one bookmark is 1" : "its bookmarks are \(Self.range(to: last))"
        return PlayerError("no bookmark \(number) in \(title): \(which) ('bookmarks' lists them, 'bookmarks --all' with the automatic ones, a1, a2...)")
    }

    /// "1", "1 and 2", "a1 to a5": the numbers from the first of `last`'s kind to it.
    private static func range(to last: BookmarkNumber) -> String {
        let first = last.atIndex(1)
        switch last.index {
        case 1: return "\(first)"
        case 2: return "\(first) and \(last)"
        default: return "\(first) to \(last)"
        }
    }
}
