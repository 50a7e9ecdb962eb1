import Library
import PlayerCore

/// `chapters`: a book's chapters with where each starts and how long it is; the book loaded's
/// as heard (chapters found on opening count), any other's from the library.
struct ChapterList {
    let library: LibraryDatabase
    /// The book loaded, if any.
    let session: PlayerSession?

    /// The chapters of `bookId` (nil: the book loaded), marking the one it is in: where it is
    /// heard for the book loaded, else where it was left.
    func list(ofBook bookId: Int64?) throws -> PlayerOutcome {
        let timeline: BookTimeline
        let title: String
        let here: PlaybackPosition?
        if let session, bookId == nil || bookId == session.book.id {
            (timeline, title, here) = (session.timeline, session.book.title, session.position)
        } else {
            guard let bookId else { throw PlayerError("nothing is playing: 'chapters BOOK' lists a book's chapters") }
            let book = try library.books.book(matching: "#\(bookId)")
            let media = try library.books.items(ofBook: bookId)
            timeline = BookTimeline(media: media, userChapters: try library.books.userChapters(ofBook: bookId))
            title = book.title
            here = try library.positions.ofBook(bookId).flatMap { saved in
                media.firstIndex { $0.id == saved.mediaId }.map { PlaybackPosition(item: $0, frame: saved.frame) }
            }
        }
        let listings = timeline.chapters.indices.map { index in
            let span = timeline.span(ofChapter: index)
            return ChapterListing(title: timeline.chapters[index].title, start: span.start, length: span.length,
                                  isWholeItem: timeline.chapters[index].isWholeItem,
                                  isUsers: timeline.chapters[index].userChapterId != nil)
        }
        return .chapters(book: title, listings, current: here.flatMap(timeline.chapterIndex(at:)))
    }
}
