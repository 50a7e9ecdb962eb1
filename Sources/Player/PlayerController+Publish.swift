import Library
public import PlayerCore

/// What observers on other threads are told after every command and event.
extension PlayerController {
    /// The status with the queue's length; throws when nothing is loaded.
    func currentStatus() throws -> Status {
        let session = try playing()
        var status = Status(session: session)
        status.queue = try library.queue.books().count
        let elsewhere = placesElsewhere(ofBook: session.book.id!)
        if !elsewhere.isEmpty { status.elsewhere = elsewhere.map(Status.Elsewhere.init) }
        return status
    }

    /// Publishes the state. After a position event only the position can have changed, so the
    /// queue's length is not read again.
    func publishState(after event: PlaybackEvent? = nil) {
        if let event { broadcast.publish(.engine(event)) }
        guard let session else {
            tellEvents(of: nil)
            broadcast.update(nil, jumped: false)
            return
        }
        var status = Status(session: session)
        if broadcast.wantsCoverFiles { status.cover = covers.file(ofBook: session.book.id!) }
        let isPositionEvent = if case .position = event { true } else { false }
        if isPositionEvent, let current = broadcast.current {
            status.queue = current.queue
        } else {
            status.queue = (try? library.queue.books().count) ?? 0
        }
        let jumped = session.jumps != publishedJumps
        publishedJumps = session.jumps
        tellEvents(of: status)
        broadcast.update(status, jumped: jumped)
    }

    /// The book's cover as its file holds it (nil: none).
    public func coverPicture(ofBook bookId: Int64) -> Picture? {
        covers.picture(ofBook: bookId)
    }

    /// Renames the book loaded when the library renames it.
    public func bookRenamed(_ bookId: Int64, to title: String) {
        guard let session, session.book.id == bookId else { return }
        session.book.title = title
        publishState()
    }
}
