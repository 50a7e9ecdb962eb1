public import Library

extension PlayerController {
    /// The bookmarks of `bookId` as an export file writes them; the book loaded's placed on its
    /// timeline as heard (chapters found on opening count), so that the file names the same
    /// chapters as `bookmarks` lists.
    public func bookmarkEntries(ofBook bookId: Int64, all: Bool) throws -> [BookmarkEntry] {
        guard let session, session.book.id == bookId else { return try BookmarkTransfer.entries(ofBook: bookId, in: library, all: all) }
        return BookmarkTransfer.entries(try library.bookmarks.numbered(ofBook: bookId), all: all, timeline: session.timeline,
                                        mediaIds: session.mediaIds)
    }
}
