import Foundation
import TestSupport
import Testing

/// The library commands as a user runs them.
@Suite struct LibraryCommandTests {
    struct BookJSON: Decodable {
        struct Item: Decodable {
            let title: String
            let path: String
            let durationSeconds: Double?
        }

        let title: String
        let shelf: String?
        let author: String?
        let durationSeconds: Double
        let items: [Item]
    }

    struct ShelfJSON: Decodable {
        let path: String
        let bookCount: Int
    }

    @Test func importListAndReimportThroughTheCommandLine() throws {
        // Given the tricky tree and a fresh library
        let abplayer = try AbplayerProcess("library-cli")
        let library = abplayer.home.appending(path: "lib/library.sqlite").path
        try FileManager.default.createDirectory(at: abplayer.home.appending(path: "lib"), withIntermediateDirectories: true)
        let tree = try Fixtures.audiobookTree()

        // When it is imported onto a shelf
        let imported = try abplayer.run(["import", "--library", library, "--shelf", "Audio/Books 'n' more", tree.path])

        // Then the summary counts books and files, the bad file has one line, and the exit code
        // says that not every file went in
        #expect(imported.status == 1, "stderr: \(imported.stderr)")
        #expect(imported.stdoutString.contains("4 new books, 13 files imported, 0 already present, 1 skipped"))
        let errorLines = imported.stderr.split(separator: "\n")
        #expect(errorLines.count == 1 && errorLines.first?.contains("garbage.mp3") == true, "stderr: \(imported.stderr)")

        // and `books --json` lists them with shelf, author, durations and items in play order
        let listed = try abplayer.run(["books", "--json", "--library", library])
        let books = try listed.stdoutString.split(separator: "\n").map { try JSONDecoder().decode(BookJSON.self, from: Data($0.utf8)) }
        let war = try #require(books.first { $0.title == "War & Peace" })
        #expect(war.shelf == "Audio/Books 'n' more" && war.author == "Leo Tolstoy")
        #expect(war.items.map(\.title) == ["I-9", "I-10", "II-1", "II-2"])
        #expect(abs(war.durationSeconds - 4) < 0.01)
        #expect(books.first { $0.title == "吾輩は猫である 🐱" }?.items.map(\.title) == ["一", "九", "十"])

        // and `shelves --json` shows the tree
        let shelves = try abplayer.run(["shelves", "--json", "--library", library]).stdoutString
            .split(separator: "\n").map { try JSONDecoder().decode(ShelfJSON.self, from: Data($0.utf8)) }
        #expect(shelves.map(\.path) == ["Audio", "Audio/Books 'n' more"])
        #expect(shelves.map(\.bookCount) == [0, 4])

        // When imported again, nothing is added
        let again = try abplayer.run(["import", "--library", library, tree.path])
        #expect(again.stdoutString.contains("0 new books, 0 files imported, 13 already present"))
    }

    @Test func anAuthorSeriesTreeImportsOntoAuthorAndSeriesShelves() throws {
        // Given an Audiobookshelf tree: Author/Series/"Book N - Title" folders
        let abplayer = try AbplayerProcess("library-layout")
        let root = abplayer.home.appending(path: "Audiobooks")
        let mp3 = try Fixtures.mp3(seconds: 2, vbr: false)
        for folder in ["Some Author/A Saga/Book 2 - Alpha Second", "Some Author/A Saga/Book 1 - Zeta First"] {
            try FileManager.default.createDirectory(at: root.appending(path: folder), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: mp3, to: root.appending(path: folder + "/01.mp3"))
        }
        let library = abplayer.home.appending(path: "library.sqlite").path

        // When imported with --layout author-series
        let imported = try abplayer.run(["import", "--library", library, "--layout", "author-series", root.path])

        // Then the books are on the series shelf, in series order, by the folder's author, showing series and number
        #expect(imported.status == 0, "stderr: \(imported.stderr)")
        let listed = try abplayer.run(["books", "--brief", "--library", library]).requireSuccess().stdoutString
        let lines = listed.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "books: \(listed)")
        #expect(lines.first?.contains("[Some Author/A Saga] Zeta First — Some Author (A Saga #1)") == true, "books: \(listed)")
        #expect(lines.last?.contains("[Some Author/A Saga] Alpha Second — Some Author (A Saga #2)") == true, "books: \(listed)")

        // and a layout that does not exist is refused naming the ones that do
        let refused = try abplayer.run(["import", "--library", library, "--layout", "tree", root.path])
        #expect(refused.status != 0 && refused.stderr.contains("folders, author-series"), "stderr: \(refused.stderr)")
    }

    @Test func shelfCommandsRefuseWhatWouldBreakTheTree() throws {
        let abplayer = try AbplayerProcess("shelf-cli")
        let library = abplayer.home.appending(path: "library.sqlite").path
        func run(_ arguments: [String]) throws -> CommandResult { try abplayer.run(arguments + ["--library", library]) }
        #expect(try run(["shelf", "new", "A"]).status == 0)
        #expect(try run(["shelf", "new", "A/B \"quoted\""]).status == 0)
        // Into itself: refused with one line naming the shelf
        let cycle = try run(["shelf", "mv", "A", "A/B \"quoted\""])
        #expect(cycle.status != 0 && cycle.stderr.contains("cannot move shelf 'A'"))
        // Not empty: refused; forced: says what went
        let refused = try run(["shelf", "rm", "A"])
        #expect(refused.status != 0 && refused.stderr.contains("not empty"))
        let forced = try run(["shelf", "rm", "--force", "A"])
        #expect(forced.status == 0 && forced.stdoutString.contains("deleted 2 shelves and 0 books"))
    }

    @Test func aLibraryFromANewerAbplayerIsRefusedWithOneLine() throws {
        let abplayer = try AbplayerProcess("newer-cli")
        let library = abplayer.home.appending(path: "library.sqlite").path
        _ = try abplayer.run(["shelves", "--library", library]).requireSuccess()
        _ = try Command.run("sqlite3", [library, "INSERT INTO grdb_migrations VALUES ('v99-future')"]).requireSuccess()
        let result = try abplayer.run(["books", "--library", library])
        #expect(result.status != 0)
        #expect(result.stderr.contains(library) && result.stderr.contains("newer abplayer"), "stderr: \(result.stderr)")
    }
}
