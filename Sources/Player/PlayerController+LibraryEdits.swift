import Library
import PlayerCore

extension PlayerController {
    /// Makes `change` (the library edit `body` does) with the book loaded kept right through it,
    /// and returns what `body` returned:
    /// - files added or items reordered: the edit is made, then the new item list is taken while
    ///   the book plays, nothing heard interrupted (as when the library watch sees a file join);
    /// - items removed, or a state imported: the book is stopped first, its place saved (the
    ///   engine and the recorder hold its item list; an item gone from under them would have a
    ///   position saved for a file no longer in the book, or the old place saved over the imported
    ///   one), then loaded again at its saved place, playing again if it was, and said so;
    /// - the book deleted (itself or with its shelf): stopped first, its place saved, and said so.
    /// Edits that do not touch the book loaded are just made.
    public func edit<Result>(_ change: LibraryEdit, _ body: () throws -> Result) throws -> Result {
        guard let session, let bookId = session.book.id, touches(change, bookId: bookId) else { return try body() }
        let title = session.book.title
        switch change {
        case .itemsAddedOrMoved:
            let result = try body()
            takeNewItems(of: session, reason: change.reason)
            return result
        case .itemsRemoved, .stateImported:
            let wasPlaying = session.state == .playing
            close()
            defer { loadAgain(bookId, playing: wasPlaying, reason: change.reason) }
            return try body()
        case .bookDeleted, .shelfDeleted:
            close()
            publishState()
            tell(.stopped(book: title, reason: change.reason))
            return try body()
        }
    }

    private func touches(_ change: LibraryEdit, bookId: Int64) -> Bool {
        switch change {
        case let .itemsAddedOrMoved(edited), let .itemsRemoved(edited), let .bookDeleted(edited):
            return edited == bookId
        case let .shelfDeleted(path):
            // Unreadable: stopped, to be safe (the book may be going).
            guard let listing = try? library.catalog.bookListing(id: bookId) else { return true }
            guard let shelf = listing.shelf else { return false }
            return shelf == path || shelf.hasPrefix(path + "/")
        case .stateImported:
            return true
        }
    }

    /// The book's items after an edit that kept every item it had: taken while it plays. (An edit
    /// that took one away is `itemsRemoved`'s; should the list not be a renumbering anyway, the
    /// book is loaded again.)
    private func takeNewItems(of session: PlayerSession, reason: String) {
        guard let bookId = session.book.id, let media = try? library.books.items(ofBook: bookId),
              let renumbering = ItemRenumbering(from: session.mediaIds, to: media.map { $0.id! }) else {
            let wasPlaying = session.state == .playing
            close()
            if let bookId = session.book.id { loadAgain(bookId, playing: wasPlaying, reason: reason) }
            return
        }
        guard !renumbering.isIdentity || media.map(\.path) != session.timeline.paths else { return }
        session.replaceItems(with: media, renumbering)
        publishState()
    }

    /// After an edit that stopped it: the book at its saved place again, playing if it was,
    /// else ready, paused; said in one line. Nothing when it cannot load (a problem then).
    private func loadAgain(_ bookId: Int64, playing: Bool, reason: String) {
        do {
            let book = try library.books.book(matching: "#\(bookId)")
            let outcome = try load(book, playing: playing)
            let seconds: Double? = switch outcome {
            case let .started(_, seconds, _, _, _), let .cued(_, seconds, _, _): seconds
            default: nil
            }
            tell(.reloaded(book: book.title, reason: reason, playing: playing, seconds: seconds))
        } catch {
            tell(.problem("\(reason): \(error)"))
        }
        publishState()
    }
}
