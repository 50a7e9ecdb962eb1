public import Library
import PlayerCore

extension PlayerController {
    /// What the library watch changed (files added to a book, moved, missing or back): when the
    /// book loaded is among them, its new item list is taken while it plays, nothing heard
    /// interrupted (`PlayerSession.replaceItems`). A file added after the one playing is heard
    /// when the book gets there; one added before it renumbers the item playing, not the audio;
    /// the file playing gone missing plays on (its decoder has it open), and a missing file
    /// reached later is skipped as unreadable. Called by every front end that runs a watch.
    public func libraryChanged(_ changes: [LibraryChange]) {
        if !changes.isEmpty { libraryEdited() }
        guard let session, let bookId = session.book.id, changes.contains(where: { $0.bookId == bookId }) else { return }
        let media: [Media]
        do {
            media = try library.books.items(ofBook: bookId)
        } catch {
            tell(.problem("reading the new items of \(session.book.title): \(error)"))
            return
        }
        // An item that left the book is not something a watch does: the list loaded then stays
        // as it is until the book is played again.
        guard let renumbering = ItemRenumbering(from: session.mediaIds, to: media.map { $0.id! }) else { return }
        let unchanged = renumbering.isIdentity && media.map(\.path) == session.timeline.paths
        guard !unchanged else { return }
        session.replaceItems(with: media, renumbering)
        publishState()
    }

    /// Tells the observers that the library's books or shelves changed (`PlayerUpdate.libraryChanged`):
    /// after a front end's library command edited them, and after the library watch did. A
    /// library screen attached over the control socket reads the library again then.
    public func libraryEdited() {
        libraryEdits += 1
        broadcast.publish(.libraryChanged)
    }
}
