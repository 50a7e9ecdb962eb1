/// A file an import or the library watch could not take, and why (said as import says it).
public struct SkippedFile: Error, Sendable, Equatable {
    public let path: String
    public let reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}

/// What one pass of `LibraryWatch` did to one book: the watcher reports one value per book per
/// pass, so a burst of files becomes one report.
public struct LibraryChange: Sendable, Equatable {
    public let bookId: Int64
    public let title: String
    /// The book was made in this pass from a new folder.
    public var isNewBook = false
    public var filesAdded = 0
    /// Files found at a new path (renamed or moved), keeping their identity.
    public var filesMoved = 0
    /// Files gone: marked missing, still in the book.
    public var filesMissing = 0
    /// Missing files that are back at their path.
    public var filesReturned = 0

    public init(bookId: Int64, title: String) {
        self.bookId = bookId
        self.title = title
    }

    public var isEmpty: Bool {
        !isNewBook && filesAdded == 0 && filesMoved == 0 && filesMissing == 0 && filesReturned == 0
    }
}
