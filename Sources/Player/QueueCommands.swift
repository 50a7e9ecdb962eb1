import Library
import PlayerCore

/// The queue of books to play after the one loaded: listing it, adding (not the book loaded),
/// moving, removing and clearing, by the 1-based places the listener sees.
struct QueueCommands {
    let library: LibraryDatabase
    /// The book loaded, if any: it cannot be queued behind itself.
    let loadedBookId: Int64?

    func perform(_ command: QueueCommand) throws -> PlayerOutcome {
        do {
            switch command {
            case .list:
                return .queue(try library.queue.books())
            case let .add(bookId):
                let book = try library.books.book(matching: "#\(bookId)")
                if loadedBookId == book.id { throw PlayerError("\(book.title) is playing now") }
                guard try library.queue.enqueue(bookId: bookId) else { return .alreadyQueued(book) }
                return .queued(book, count: try library.queue.books().count)
            case let .move(from, to):
                try library.queue.move(from: from - 1, to: to - 1)
                return .queueMoved(from: from, to: to)
            case let .remove(index):
                let bookId = try library.queue.remove(at: index - 1)
                let title = (try? library.books.book(matching: "#\(bookId)"))?.title
                return .unqueued(position: index, bookId: bookId, title: title ?? "#\(bookId)")
            case .clear:
                try library.queue.clear()
                return .queueCleared
            }
        } catch let error as QueueIndexError {
            throw PlayerError(error.description)
        }
    }
}
