import Library

/// A change to the library that may touch the book loaded, as a front end's library command
/// makes it (`book add`, `book move-item`, `book remove-item`, `book rm`, `shelf rm --force`,
/// `import-state`). What that means for the book playing is the player's to decide:
/// `PlayerController.edit(_:_:)`.
public enum LibraryEdit: Sendable, Equatable {
    /// Files added to the book, or its items put in another order.
    case itemsAddedOrMoved(bookId: Int64)
    /// Items taken out of the book.
    case itemsRemoved(bookId: Int64)
    case bookDeleted(bookId: Int64)
    /// A shelf deleted with what is on it and below it.
    case shelfDeleted(path: String)
    /// A state file's places imported over the library's.
    case stateImported

    /// Why the book loaded is stopped or loaded again, as the listener is told.
    var reason: String {
        switch self {
        case .itemsAddedOrMoved: "its items changed"
        case .itemsRemoved: "items are being removed from it"
        case .bookDeleted: "it is being deleted"
        case .shelfDeleted: "its shelf is being deleted"
        case .stateImported: "importing a state"
        }
    }
}
