import Foundation
import Library
@testable import Player
import PlayerCore
import Testing

/// `bookmarks export` then `bookmarks import`, through the library: each format brings a book's
/// bookmarks back to their places and notes; a many-file book's are placed in their files; what
/// is already there is passed over; a bad line is named and the rest imported.
@Suite struct BookmarkTransferTests {
    /// A book of two 600 s files at 44.1 kHz (/synthetic/0/0.mp3, 1.mp3), bookmarked in both,
    /// on odd frames, with hostile notes.
    static func bookmarkedBook() throws -> (LibraryDatabase, Int64, [Media]) {
        let library = try LibraryDatabase()
        try library.books.insertSyntheticBooks(books: 1, itemsPerBook: 2, shelfFanout: 1)
        let book = try library.books.book(matching: "Book 0").id!
        let media = try library.books.items(ofBook: book)
        let marks: [(Int, Int64, String?)] = [
            (0, 44100 * 12 + 7, "opening, \"quoted\""), (0, 44100 * 599 + 44000, "line\nbreak\tand tab"),
            (1, 0, nil), (1, 44100 * 301 + 12345, "\u{1B}[2J\u{1B}]0;pwned\u{07}escape"),
        ]
        for (item, frame, note) in marks {
            try library.bookmarks.add(bookId: book, mediaId: media[item].id!, frame: frame, kind: .user, note: note)
        }
        // An automatic one, which an export leaves out unless asked
        try library.bookmarks.add(bookId: book, mediaId: media[0].id!, frame: 44100 * 5, kind: .beforeSeek)
        return (library, book, media)
    }

    struct Mark: Equatable {
        let mediaId: Int64
        let frame: Int64
        let note: String?
    }

    static func userMarks(_ library: LibraryDatabase, _ book: Int64) throws -> [Mark] {
        try library.bookmarks.numbered(ofBook: book).filter { !$0.number.isAutomatic }
            .map { Mark(mediaId: $0.bookmark.mediaId, frame: $0.bookmark.frame, note: $0.bookmark.note) }
    }

    /// A note as Audacity's labels and chapters.txt carry it: tabs and line breaks as spaces.
    static func oneLine(_ note: String) -> String {
        note.replacingOccurrences(of: "\t", with: " ").replacingOccurrences(of: "\n", with: " ")
    }

    static func deleteUserMarks(_ library: LibraryDatabase, _ book: Int64) throws {
        for mark in try library.bookmarks.all(ofBook: book, includeAutomatic: false) { try library.bookmarks.delete(id: mark.id!) }
    }

    @Test(arguments: BookmarkFileFormat.allCases)
    func anExportedBookmarkFileImportsBackToTheSamePlacesAndNotes(format: BookmarkFileFormat) throws {
        // Given a bookmarked book of two files, exported
        let (library, book, media) = try Self.bookmarkedBook()
        let before = try Self.userMarks(library, book)
        let text = BookmarkFile.text(try BookmarkTransfer.entries(ofBook: book, in: library, all: false), as: format)

        // When its bookmarks are deleted and the file imported
        try Self.deleteUserMarks(library, book)
        let read = try BookmarkFile.read(text, format: nil, name: "bookmarks")
        let imported = try BookmarkTransfer.importing(read, toBook: book, in: library)

        // Then all four are back, in the same files
        #expect(imported == BookmarkTransfer.Imported(imported: 4, alreadyThere: 0, problems: []), "\(text)")
        #expect(imported.summary == "imported 4 bookmarks")
        let after = try Self.userMarks(library, book)
        #expect(after.map(\.mediaId) == before.map(\.mediaId), "\(text)")
        // at the same frame (to the millisecond in a chapters.txt, which writes no finer)
        let tolerance: Int64 = format == .chapters ? 22 : 0
        #expect(zip(after, before).allSatisfy { abs($0.frame - $1.frame) <= tolerance }, "\(after) \(before)")
        // with the same notes (Audacity's and chapters' on one line; a noteless one still noteless)
        let notes = format == .csv || format == .json ? before.map(\.note) : before.map { $0.note.map(Self.oneLine) }
        #expect(after.map(\.note) == notes)
        // and the automatic bookmark untouched
        #expect(try library.bookmarks.all(ofBook: book).filter(\.kind.isAutomatic).count == 1)
        _ = media
    }

    @Test func aManyFileBooksBookmarksAreWrittenInTheBooksTimeAndInTheirFiles() throws {
        // Given the bookmarked book of two 600 s files
        let (library, book, _) = try Self.bookmarkedBook()

        // When exported (with the automatic one)
        let entries = try BookmarkTransfer.entries(ofBook: book, in: library, all: true)

        // Then each is in its file at its own time, and in the book at the files' lengths before it plus that
        #expect(entries.map(\.number) == ["a1", "1", "2", "3", "4"])
        #expect(entries.map(\.file) == ["0.mp3", "0.mp3", "0.mp3", "1.mp3", "1.mp3"])
        let fileSeconds = [5, 12 + 7.0 / 44100, 599 + 44000.0 / 44100, 0, 301 + 12345.0 / 44100]
        #expect(zip(entries.compactMap(\.fileSeconds), fileSeconds).allSatisfy { abs($0 - $1) < 1e-9 }, "\(entries)")
        #expect(zip(entries.compactMap(\.bookSeconds), fileSeconds.enumerated().map { $0 >= 3 ? 600 + $1 : $1 }).allSatisfy { abs($0 - $1) < 1e-9 })
        // named by their chapter (each file is one), with their kind
        #expect(entries.map(\.chapter) == ["Chapter 1", "Chapter 1", "Chapter 1", "Chapter 2", "Chapter 2"])
        #expect(entries.map(\.kind) == ["beforeSeek", "user", "user", "user", "user"])

        // When a CSV places a bookmark by its file and time there, and another by the book's time only
        try Self.deleteUserMarks(library, book)
        let csv = "number,book_seconds,file,file_seconds,note\n1,5,1.mp3,2.5,by file\n2,610.25,,,by book time\n3,9999,,,past the end\n"
        let imported = try BookmarkTransfer.importing(try BookmarkFile.read(csv, format: .csv, name: "x.csv"), toBook: book, in: library)

        // Then the file's time wins over the book's, the book's time finds its file, and one past the end is named
        #expect(imported.imported == 2)
        #expect(imported.problems == ["line 4: 2:46:39 is past the end of Book 0 (20:00)"])
        let media = try library.books.items(ofBook: book)
        #expect(try Self.userMarks(library, book) == [Mark(mediaId: media[1].id!, frame: 110250, note: "by file"),
                                                     Mark(mediaId: media[1].id!, frame: 441000 + 11025, note: "by book time")])
    }

    @Test func bookmarksAlreadyThereArePassedOverAndSaidSo() throws {
        // Given a book's bookmarks exported as JSON
        let (library, book, _) = try Self.bookmarkedBook()
        let text = BookmarkFile.text(try BookmarkTransfer.entries(ofBook: book, in: library, all: false), as: .json)
        // and one of them removed, and one given another note
        let marks = try library.bookmarks.all(ofBook: book, includeAutomatic: false)
        try library.bookmarks.delete(id: marks[0].id!)
        try library.bookmarks.updateNote(id: marks[1].id!, note: "changed")

        // When the file is imported
        let imported = try BookmarkTransfer.importing(try BookmarkFile.read(text, format: nil, name: "b.json"), toBook: book, in: library)

        // Then the removed one and the old note come back, and the two unchanged are passed over
        #expect(imported.summary == "imported 2 bookmarks, 2 already there")
        #expect(try library.bookmarks.all(ofBook: book, includeAutomatic: false).count == 5)
        // and importing it again adds nothing
        let again = try BookmarkTransfer.importing(try BookmarkFile.read(text, format: nil, name: "b.json"), toBook: book, in: library)
        #expect(again.summary == "imported 0 bookmarks, 4 already there")
    }

    @Test func aMalformedFileHasItsBadLinesNamedAndTheRestImported() throws {
        // Given a book without bookmarks, and Audacity labels with a bad line and a label past the end
        let (library, book, _) = try Self.bookmarkedBook()
        try Self.deleteUserMarks(library, book)
        let labels = "10\t10\tfirst\n10:00\tten minutes\n1e9\t1e9\tfar\n700.5\t700.5\tsecond\n"

        // When imported
        let imported = try BookmarkTransfer.importing(try BookmarkFile.read(labels, format: nil, name: "labels.txt"), toBook: book, in: library)

        // Then the bad lines are named, one line each, and the two good ones imported
        #expect(imported.problems == ["line 2: not a label (start<TAB>end<TAB>label, in seconds)",
                                      "line 3: 277777:46:40 is past the end of Book 0 (20:00)"], "\(imported.problems)")
        #expect(imported.summary == "imported 2 bookmarks, 2 lines not read")
        #expect(try Self.userMarks(library, book).map(\.note) == ["first", "second"])
    }
}
