import Foundation
import TestSupport
import Testing

/// `abplayer bookmarks export|import` and the REPL's `bookmarks export|import`: a book's
/// bookmarks to standard output or a file and back, hostile notes kept.
@Suite struct BookmarkFileCommandTests {
    /// A line of `abplayer bookmarks --json`.
    struct Listed: Decodable, Equatable {
        let number: String
        let mediaId: Int64
        let frame: Int64
        let note: String?
    }

    static func listed(_ abplayer: AbplayerProcess, _ library: String) throws -> [Listed] {
        try abplayer.run(["bookmarks", "--json", "--library", library, "Ender"]).requireSuccess().stdoutString
            .split(separator: "\n").map { try JSONDecoder().decode(Listed.self, from: Data($0.utf8)) }
    }

    @Test func theCommandLineExportsCSVToStandardOutputAndImportsItBack() throws {
        // Given Ender's Game (two files of 20 s) with a bookmark in its second file whose note
        // has a comma, quotes, a line break and a terminal escape
        let (abplayer, library) = try ReplTests.library("bookmark-export-cli")
        let note = "the \"duel\", again\nsecond line \u{1B}[31mred"
        _ = try abplayer.run(["bookmarks", "add", "--library", library, "--item", "2", "--at", "3.5", "--note", note, "Ender"]).requireSuccess()
        _ = try abplayer.run(["bookmarks", "add", "--library", library, "--item", "1", "--at", "1", "Ender"]).requireSuccess()
        let before = try Self.listed(abplayer, library)

        // When it is exported as CSV to standard output (a pipe)
        let exported = try abplayer.run(["bookmarks", "export", "--library", library, "Ender", "--format", "csv", "-"]).requireSuccess()

        // Then it is a header and a record a bookmark, the note quoted and kept exactly, each
        // with its time in the book and in its file
        let csv = exported.stdoutString
        #expect(csv.hasPrefix("number,book_time,book_seconds,file,file_time,file_seconds,chapter,kind,note,created\r\n"), "\(csv)")
        #expect(csv.contains("1,0:01.000,1.000000,Part 1.mp3,0:01.000,1.000000,"), "\(csv)")
        #expect(csv.contains(",Part 2.mp3,0:03.500,3.500000,"), "\(csv)")
        #expect(csv.contains(",user,\"the \"\"duel\"\", again\nsecond line \u{1B}[31mred\","), "\(csv)")
        #expect(exported.stderr.isEmpty, "\(exported.stderr)")

        // When the bookmarks are removed and the file imported
        let file = abplayer.home.appending(path: "marks.csv").path
        try exported.stdout.write(to: URL(fileURLWithPath: file))
        _ = try abplayer.run(["bookmarks", "rm", "--library", library, "Ender", "2"]).requireSuccess()
        _ = try abplayer.run(["bookmarks", "rm", "--library", library, "Ender", "1"]).requireSuccess()
        let imported = try abplayer.run(["bookmarks", "import", "--library", library, "Ender", file]).requireSuccess()

        // Then both are back, at the same frames, with the same notes
        #expect(imported.stdoutString == "imported 2 bookmarks\n", "\(imported.stdoutString) \(imported.stderr)")
        #expect(try Self.listed(abplayer, library) == before)
        // and importing it again adds nothing, and says so
        let again = try abplayer.run(["bookmarks", "import", "--library", library, "Ender", file]).requireSuccess()
        #expect(again.stdoutString == "imported 0 bookmarks, 2 already there\n")
    }

    @Test func aFileThatIsNoBookmarkFileIsRefusedInOneLine() throws {
        let (abplayer, library) = try ReplTests.library("bookmark-import-refused")
        let file = abplayer.home.appending(path: "notes.md").path
        try Data("# notes\nnothing here\n".utf8).write(to: URL(fileURLWithPath: file))

        let refused = try abplayer.run(["bookmarks", "import", "--library", library, "Ender", file])

        #expect(refused.status != 0)
        #expect(refused.stderr == "abplayer: \(file) is not a bookmark file: name its format with --format csv, json, audacity or chapters\n")

        // A file with a bad line: the line named on standard error, the others imported, and a failure exit
        let partial = abplayer.home.appending(path: "partial.csv").path
        try Data("number,book_seconds,note\n1,2.5,good\n2,soon,bad\n".utf8).write(to: URL(fileURLWithPath: partial))
        let some = try abplayer.run(["bookmarks", "import", "--library", library, "Ender", partial])
        #expect(some.status == 1 && some.stdoutString == "imported 1 bookmark, 1 line not read\n", "\(some.stdoutString)")
        #expect(some.stderr == "abplayer: \(partial): line 3: book_seconds 'soon' is not a time (seconds, or h:mm:ss)\n")
        #expect(try Self.listed(abplayer, library).map(\.note) == ["good"])

        // and the library's own file is neither written over nor read as bookmarks
        let overwrite = try abplayer.run(["bookmarks", "export", "--library", library, "Ender", "--format", "csv", library])
        #expect(overwrite.status != 0 && overwrite.stderr == "abplayer: \(library) is this library's own database file: name a new file for the bookmarks\n",
                "\(overwrite.stderr)")
        let read = try abplayer.run(["bookmarks", "import", "--library", library, "Ender", library + "-wal"])
        #expect(read.status != 0 && read.stderr.contains("is this library's own database file, not a bookmark file"), "\(read.stderr)")
        _ = try abplayer.run(["bookmarks", "--library", library, "Ender"]).requireSuccess()
    }

    @Test func theReplExportsAndImportsTheBookPlayingsBookmarks() throws {
        // Given Ender's Game playing, bookmarked at 0:25 (in its second file)
        let (abplayer, library) = try ReplTests.library("bookmark-export-repl")
        let file = abplayer.home.appending(path: "marks.json").path
        let labels = abplayer.home.appending(path: "labels.txt").path

        // When a script exports its bookmarks as JSON and as Audacity labels, then imports the labels
        let result = try abplayer.run(["-c", "play Ender; pause; seek 0:25; bookmark the duel; bookmarks export \(file); "
            + "bookmarks export --format audacity \(labels); bookmark rm 1; bookmarks import \(labels); bookmarks import Ender \(file)",
            "--output", "null", "--library", library])

        // Then each step says what it did: one exported, the label imported, the JSON's already there
        #expect(result.status == 0, "\(result.stderr)")
        let said = result.stdoutString
        #expect(said.contains("exported 1 bookmark of Ender's Game to \(file)"), "\(said)")
        #expect(said.contains("imported 1 bookmark\n"), "\(said)")
        #expect(said.contains("imported 0 bookmarks, 1 already there"), "\(said)")
        // and the JSON names the bookmark's file and time in it, and its place in the book
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [[String: Any]])
        #expect(objects.count == 1)
        #expect(objects.first?["note"] as? String == "the duel" && objects.first?["file"] as? String == "Part 2.mp3", "\(objects)")
        #expect(objects.first?["bookTime"] as? String == "0:25.000" || (objects.first?["bookSeconds"] as? Double).map { abs($0 - 25) < 0.1 } == true,
                "\(objects)")
        // and the label put it back where it was, with its note
        let marks = try Self.listed(abplayer, library)
        #expect(marks.map(\.note) == ["the duel"], "\(marks)")
    }
}
