@testable import Console
import Library
import Testing

/// `bookmarks export|import`: FILE is the last word, BOOK the words before it, the format from
/// --format or FILE's name; what cannot be done is said before anything runs.
@Suite struct BookmarkFileLineTests {
    func parse(_ line: String) throws -> Command {
        try Command(words: try #require(try Tokenizer.commands(in: line).first))
    }

    func file(_ line: String) throws -> BookmarkFileLine? {
        guard case let .library(.bookmarkFile(parsed)) = try parse(line) else { return nil }
        return parsed
    }

    @Test func theBookIsTheWordsBeforeTheFileAndNoneMeansTheBookPlaying() throws {
        let named = try #require(try file("bookmarks export Ender Game --format csv ~/marks.txt"))
        #expect(named.book == "Ender Game" && named.format == .csv && named.path == "~/marks.txt" && named.direction == .exporting(all: false))

        let playing = try #require(try file("bookmarks export --all marks.json"))
        #expect(playing.book == nil && playing.format == nil && playing.direction == .exporting(all: true))

        let imported = try #require(try file("bookmarks import \"Dune\" labels.txt"))
        #expect(imported.book == "Dune" && imported.direction == .importing && imported.path == "labels.txt")
        // and a book titled like neither action is still listed
        #expect(try parse("bookmarks Dune") == .library(.bookmarks(book: "Dune")))
    }

    @Test func whatCannotBeDoneIsSaidBeforeAnythingRuns() {
        #expect(throws: CommandError("bookmarks export: 'marks' does not say its format: add --format csv, json, audacity or chapters")) {
            try parse("bookmarks export Dune marks")
        }
        #expect(throws: CommandError("bookmarks export: '-' does not say its format: add --format csv, json, audacity or chapters")) {
            try parse("bookmarks export -")
        }
        #expect(throws: CommandError("bookmarks import: --format needs csv, json, audacity or chapters")) {
            try parse("bookmarks import --format xml a.xml")
        }
        #expect(throws: CommandError("bookmarks import: unknown option '--all': use --format FORMAT")) {
            try parse("bookmarks import --all a.csv")
        }
        #expect(throws: CommandError("usage: bookmarks import [BOOK] [--format csv|json|audacity|chapters] FILE")) {
            try parse("bookmarks import")
        }
    }
}
