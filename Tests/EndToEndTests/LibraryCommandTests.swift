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
