import Foundation
@testable import Library
import Testing
import TestSupport

/// The export formats on their own: what is written reads back the same, hostile notes included;
/// a bad line is named and the rest read; a chapters export is what the importer's chapter
/// reader reads.
@Suite struct BookmarkFileTests {
    /// Notes a listener (or a file from elsewhere) may hold: commas, quotes, line breaks of each
    /// kind, a tab, a terminal escape, spaces at the ends, non-ASCII.
    static let hostileNotes = [
        "plain", "a, comma", "she said \"no\"", "two\nlines", "cr\r\nlf", "a\ttab", "\u{1B}[31mred\u{1B}[0m \u{1B}]0;title\u{07}",
        "  spaced  ", "\"", ",", "Ünïcödé — ✓", "",
    ]

    static func entries(_ notes: [String]) -> [BookmarkEntry] {
        let created = Date(timeIntervalSince1970: 1_795_000_000)
        return notes.enumerated().map { index, note in
            BookmarkEntry(number: String(index + 1), bookSeconds: 600 + Double(index) * 61.25 + 0.000023, file: "CD1/0\(index % 3).mp3",
                          fileSeconds: Double(index) * 61.25 + 0.000023, chapter: "Chapter, \"\(index)\"", kind: "user",
                          note: note.isEmpty ? nil : note, createdAt: created)
        }
    }

    @Test(arguments: [BookmarkFileFormat.csv, .json])
    func csvAndJSONKeepEveryFieldAndEveryCharacterOfANote(format: BookmarkFileFormat) throws {
        // Given bookmarks with hostile notes and chapter titles
        let written = Self.entries(Self.hostileNotes)

        // When they are written and read back (the format from the content alone)
        let text = BookmarkFile.text(written, as: format)
        let read = try BookmarkFile.read(text, format: nil, name: "bookmarks")

        // Then every entry comes back exactly, line by line, and nothing is refused
        #expect(read.problems.isEmpty, "\(read.problems)")
        #expect(read.lines.map { Self.withoutTimes($0.entry) } == written.map(Self.withoutTimes), "\(text)")
        #expect(read.lines.count == written.count && zip(read.lines, written).allSatisfy {
            Self.same($0.entry.bookSeconds, $1.bookSeconds) && Self.same($0.entry.fileSeconds, $1.fileSeconds)
        }, "\(text)")
    }

    /// Times written with six decimals come back within a nanosecond (not always the same double).
    static func same(_ a: Double?, _ b: Double?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return abs(a - b) < 1e-9
    }

    static func withoutTimes(_ entry: BookmarkEntry) -> BookmarkEntry {
        var entry = entry
        entry.bookSeconds = nil
        entry.fileSeconds = nil
        return entry
    }

    @Test func csvIsRFC4180QuotedAndAHeaderNamesTheColumns() {
        let text = BookmarkFile.text([BookmarkEntry(number: "1", bookSeconds: 3723.25, file: "a.mp3", fileSeconds: 3.25, chapter: "One, Two",
                                                    kind: "user", note: "say \"hi\"\nthen")], as: .csv)
        let lines = text.components(separatedBy: "\r\n")
        #expect(lines[0] == "number,book_time,book_seconds,file,file_time,file_seconds,chapter,kind,note,created")
        #expect(lines[1] == "1,1:02:03.250,3723.250000,a.mp3,0:03.250,3.250000,\"One, Two\",user,\"say \"\"hi\"\"\nthen\",")
    }

    @Test func audacityLabelsAndChaptersKeepTimesAndPutNotesOnOneLine() throws {
        // Given bookmarks whose notes have tabs and line breaks
        let written = Self.entries(["one\ttab", "two\nlines\u{2028}sep", "", "plain"])

        // When written as Audacity labels
        let labels = BookmarkFile.text(written, as: .audacity)
        // Then each is a point label in the book's time, six decimals, its note on one line
        #expect(labels.split(separator: "\n").first == "600.000023\t600.000023\tone tab")
        let readLabels = try BookmarkFile.read(labels, format: nil, name: "labels.txt")
        #expect(readLabels.lines.count == 4 && zip(readLabels.lines, written).allSatisfy { Self.same($0.entry.bookSeconds, $1.bookSeconds) })
        #expect(readLabels.lines.map(\.entry.note) == ["one tab", "two lines sep", nil, "plain"])

        // When written as a chapters.txt, times to the millisecond, a noteless one titled by its number
        let chapters = BookmarkFile.text(written, as: .chapters)
        #expect(chapters.split(separator: "\n").map(String.init)
            == ["00:10:00.000 one tab", "00:11:01.250 two lines sep", "00:12:02.500 Bookmark 3", "00:13:03.750 plain"])
        let readChapters = try BookmarkFile.read(chapters, format: nil, name: "chapters.txt")
        #expect(readChapters.lines.map(\.entry.note) == ["one tab", "two lines sep", nil, "plain"])
        #expect(zip(readChapters.lines, written).allSatisfy { abs($0.entry.bookSeconds! - $1.bookSeconds!) < 0.0005 })
    }

    @Test func aChaptersExportIsReadByTheImportersChapterReader() throws {
        // Given bookmarks exported as chapters, with a note that has a line break
        let written = Self.entries(["Opening", "The\nDuel", "", "   "])
        let text = BookmarkFile.text(written, as: .chapters)

        // When the chapter sidecar reader reads it as a list
        let chapters = ChapterSidecars.chapterList(text)
        // Then it has a chapter a bookmark, at its time to the millisecond, titled by its note
        #expect(chapters.map(\.title) == ["Opening", "The Duel", "Bookmark 3", "Bookmark 4"])
        #expect(zip(chapters, written).allSatisfy { abs($0.startSeconds - $1.bookSeconds!) < 0.0005 }, "\(chapters)")

        // and when the file sits beside a book's only file as chapters.txt, the importer finds them there
        let folder = try BuildProducts.temporaryDirectory("bookmark-chapters").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/chapters.txt"))
        let audio = folder + "/book.m4b"
        FileManager.default.createFile(atPath: audio, contents: Data())
        #expect(ChapterSidecars.read(folder: folder, files: [audio])[audio]?.chapters == chapters)
    }

    @Test func aBadLineIsNamedAndTheOthersAreRead() throws {
        // Given a CSV with a time that is no time, a line with no time, and good lines around them
        let csv = """
            number,book_seconds,note\r
            1,10.5,first\r
            2,1:x,bad time\r
            3,,no time\r
            4,"20",last
            """
        let read = try BookmarkFile.read(csv, format: nil, name: "in.csv")
        // Then the two bad lines are named by their line number, and the others read
        #expect(read.problems.map(\.description) == ["line 3: book_seconds '1:x' is not a time (seconds, or h:mm:ss)",
                                                     "line 4: no time: a bookmark needs book_seconds (or book_time), or file and file_seconds"])
        #expect(read.lines.map(\.number) == [2, 5])
        #expect(read.lines.map(\.entry.note) == ["first", "last"])

        // and a note over two lines counts its lines: the line after it is named by its own number
        let spanning = try BookmarkFile.read("number,book_seconds,note\n1,1,\"a\nb\"\n2,x,c\n", format: .csv, name: "in.csv")
        #expect(spanning.problems.map(\.line) == [4])

        // Given Audacity labels with a bad line and a spectral label's frequency line
        let labels = try BookmarkFile.read("1.5\t1.5\tone\nnonsense\n\\\t100\t200\n2.5\t3\ttwo\n", format: nil, name: "labels.txt")
        #expect(labels.problems.map(\.description) == ["line 2: not a label (start<TAB>end<TAB>label, in seconds)"])
        #expect(labels.lines.map(\.entry.note) == ["one", "two"])

        // Given a JSON array with an object that is no bookmark
        let json = try BookmarkFile.read(#"[{"bookSeconds": 1, "note": "a"}, {"note": "b"}, 3, {"bookTime": "0:02.500"}]"#, format: nil, name: "b.json")
        #expect(json.problems.map(\.line) == [2, 3] && json.problems.allSatisfy(\.isEntry))
        #expect(json.lines.map(\.entry.bookSeconds) == [1, 2.5])
    }

    @Test func aFileOfNoFormatIsRefusedInOneLine() throws {
        #expect(throws: LibraryError.invalid("notes.md is not a bookmark file: name its format with --format csv, json, audacity or chapters")) {
            try BookmarkFile.read("# my notes\nsome text\n", format: nil, name: "notes.md")
        }
        #expect(throws: LibraryError.self) { try BookmarkFile.read("{not json", format: .json, name: "x.json") }
        // a .txt none of whose lines is a label: one line, naming the first, not a complaint a line
        #expect(throws: LibraryError.invalid("todo.txt: not one line of it is a bookmark in the audacity format "
            + "(line 1: not a label (start<TAB>end<TAB>label, in seconds)): name its format with --format csv, json, audacity or chapters")) {
            try BookmarkFile.read("buy milk\ncall home\n", format: nil, name: "todo.txt")
        }
        // while an export of a book without bookmarks reads as none, and a null in a JSON array is an entry named
        #expect(try BookmarkFile.read(BookmarkFile.text([], as: .csv), format: nil, name: "empty.csv").lines.isEmpty)
        #expect(try BookmarkFile.read("[null, {\"bookSeconds\": 3}]", format: nil, name: "b.json").problems.map(\.line) == [1])
    }

    @Test func aLabelTrackOrChaptersLeavesOutABookmarkWithoutABookTime() throws {
        // Given two bookmarks, the second in a file after one whose length is not known yet
        var entries = Self.entries(["first", "second"])
        entries[1].bookSeconds = nil

        // Then a label track and a chapters.txt hold only the first, and count the second left out
        #expect(BookmarkFile.text(entries, as: .audacity).split(separator: "\n").count == 1)
        #expect(BookmarkFile.text(entries, as: .chapters).split(separator: "\n").count == 1)
        #expect(BookmarkFile.leftOut(entries, as: .audacity) == 1 && BookmarkFile.leftOut(entries, as: .chapters) == 1)
        // while CSV and JSON keep both, by file
        #expect(BookmarkFile.leftOut(entries, as: .csv) == 0 && BookmarkFile.leftOut(entries, as: .json) == 0)
    }
}
