import Foundation
import TestSupport
import Testing

/// Bookmarks are named by their place in the list shown, by time in the book: the same numbers
/// in the replies, `bookmarks`, `jump`, `bookmark note|rm`, the `B` screen, `abplayer bookmarks`
/// and on two computers that sync; the automatic ones only as a1, a2... (`bookmarks --all`).
@Suite struct BookmarkNumberTests {
    func script(_ abplayer: AbplayerProcess, _ library: String, _ commands: String) throws -> CommandResult {
        try abplayer.run(["-c", commands, "--output", "null", "--library", library])
    }

    static func lines(_ result: CommandResult) -> [String] {
        result.stdoutString.split(separator: "\n").map(String.init)
    }

    @Test func aScriptsBookmarksAreNumberedByTimeAndTheAutomaticOnesOnlyAsAN() throws {
        // Given Ender's Game (two items of 20 s), bookmarked out of time order, at 0:30 then 0:10,
        // the seeks between them leaving automatic bookmarks
        let (abplayer, library) = try ReplTests.library("bookmark-numbers")
        let made = try script(abplayer, library, "play Ender; pause; seek 0:30; bookmark late; seek 0:10; bookmark early; bookmarks")
        #expect(made.status == 0, "\(made.stderr)")

        // Then each was answered with its number in the list then, and the list numbers them by time
        let said = Self.lines(made)
        #expect(said.contains("bookmark 1 at 0:30: late") && said.contains("bookmark 1 at 0:10: early"), "\(said)")
        #expect(Array(said.suffix(2)) == ["1  0:10  chapter 1: Part 1  early", "2  0:30  chapter 2: Part 2  late"], "\(said)")
        // and `abplayer bookmarks` lists the same numbers; --all keeps them, the automatic ones a1, a2 among them
        let listed = try abplayer.run(["bookmarks", "--library", library, "Ender"]).requireSuccess()
        #expect(Self.lines(listed) == Array(said.suffix(2)), "\(listed.stdoutString)")
        let all = Self.lines(try abplayer.run(["bookmarks", "--all", "--library", library, "Ender"]).requireSuccess())
        #expect(all.filter { !$0.hasPrefix("a") } == Array(said.suffix(2)), "\(all)")
        #expect(all.filter { $0.hasPrefix("a") }.map { $0.prefix(while: { $0 != " " }) } == ["a1", "a2"], "\(all)")
        #expect(all.contains { $0.hasPrefix("a2  0:30  chapter 2: Part 2  before a seek") }, "\(all)")

        // When a new player jumps to 1
        let jumped = try script(abplayer, library, "play Ender; pause; seek 0:35; jump 1; status --json")
        // Then it is at 0:10, the early one
        #expect(jumped.stdoutString.contains("at bookmark 1 (early): 0:10 / 0:40"), "\(jumped.stdoutString)")
        let status = try #require(try ReplTests.statuses(jumped).last, "\(jumped.stdoutString)")
        #expect(abs(status.bookPosition.map { $0 - 10 } ?? 99) < 0.05, "\(jumped.stdoutString)")
        // and a plain number never reaches an automatic one: 3 is none, the right ones named
        let beyond = try script(abplayer, library, "play Ender; jump 3")
        #expect(beyond.status == 1 && beyond.stderr.contains("no bookmark 3 in Ender's Game: its bookmarks are 1 and 2"), "\(beyond.stderr)")
        // while a1 is the first automatic one, at the start
        let automatic = try script(abplayer, library, "play Ender; pause; seek 0:35; jump a1")
        #expect(automatic.stdoutString.contains("at bookmark a1: 0:00 / 0:40"), "\(automatic.stdoutString)")

        // When note 2 is written, it is the 0:30 one's
        let noted = try script(abplayer, library, "play Ender; bookmark note 2 x")
        #expect(Self.lines(noted).last == "bookmark 2 at 0:30: x", "\(noted.stdoutString) \(noted.stderr)")
        // When 1 is removed, it is the 0:10 one, and the reply says the other moved up
        let removed = try script(abplayer, library, "play Ender; bookmark rm 1; bookmarks")
        #expect(Array(Self.lines(removed).suffix(2)) == ["removed bookmark 1 at 0:10; bookmark 2 is now 1",
                                                         "1  0:30  chapter 2: Part 2  x"], "\(removed.stdoutString) \(removed.stderr)")
        // and with nothing loaded, a number names nothing: it says what to do
        let unloaded = try script(abplayer, library, "bookmark rm 1")
        #expect(unloaded.status == 1 && unloaded.stderr.contains("bookmark numbers are a book's, so 'play BOOK' first, then 'bookmark rm 1'"),
                "\(unloaded.stderr)")
    }

    @Test func theBookmarkScreenShowsTheListsNumbersAndItsNumberKeysTakeThem() throws {
        // Given Red Book (chapters Opening, Second, then a second file) in the REPL on a terminal,
        // bookmarked at 1:30 and then at 0:20
        let (abplayer, library) = try PlayerScreenTests.library("bookmark-screen")
        let screen = try TmuxTerminal(abplayer, name: "bookmarks", arguments: ["--output", "null", "--library", library],
                                      environment: ["TERM": "xterm-256color"], columns: 80, rows: 24)
        defer { screen.stop() }
        #expect(screen.waitFor("abplayer />") != nil, "\(screen.screen())")
        try screen.send("play Red Book", "Enter", "pause", "Enter", "seek 1:30", "Enter", "bookmark late", "Enter")
        #expect(screen.waitFor("bookmark 1 at 1:30: late") != nil, "\(screen.screen())")
        try screen.send("seek 0:20", "Enter", "bookmark early", "Enter")
        #expect(screen.waitFor("bookmark 1 at 0:20: early") != nil, "\(screen.screen())")

        // When the player screen's B lists them
        try screen.send("now", "Enter")
        #expect(screen.waitFor("PAUSED") != nil, "\(screen.screen())")
        try screen.send("B")
        // Then they are numbered as `bookmarks` numbers them, by time in the book
        let shown = try #require(screen.waitUntil { $0.contains("Bookmarks — Red Book") && $0.contains("late") }, "\(screen.screen())")
        let lines = PlayerScreenTests.lines(shown)
        #expect(lines.contains("> 1  0:20  chapter 1: Opening  early"), "\(lines)")
        #expect(lines.contains("  2  1:30  chapter 3: Part 2  late"), "\(lines)")

        // When 2 is pressed, the player goes to the 1:30 one
        try screen.send("2")
        #expect(screen.waitUntil { $0.contains("at bookmark 2 (late): 1:30") && $0.contains("PAUSED") } != nil, "\(screen.screen())")
        // and at the prompt, `bookmarks` lists the same numbers
        try screen.send("q")
        #expect(screen.waitUntil { PlayerScreenTests.lines($0).last { !$0.isEmpty } == "abplayer />" } != nil, "\(screen.screen())")
        try screen.send("bookmarks", "Enter")
        #expect(screen.waitUntil {
            let lines = PlayerScreenTests.lines($0)
            return lines.contains("1  0:20  chapter 1: Opening  early") && lines.contains("2  1:30  chapter 3: Part 2  late")
        } != nil, "\(screen.screen())")
    }

    @Test func twoLibrariesThatSyncNumberTheBooksBookmarksAlike() throws {
        // Given library B (the fixture's, "Code") and library A of a copy of the same book
        // elsewhere, both syncing through one folder
        let fixture = try ControlFixture("sync-numbers")
        defer { fixture.cleanUp() }
        let pair = try SyncPair(fixture)
        let libraryA = pair.libraryA
        func run(_ arguments: [String], on library: String) throws -> CommandResult { try pair.run(arguments, on: library) }
        try pair.nameTheFolder()
        // (B's ids run ahead of A's: a bookmark made and removed there took one)
        _ = try run(["bookmarks", "add", "Code", "--at", "1", "--note", "scratch"], on: fixture.library).requireSuccess()
        let scratched = try run(["bookmarks", "rm", "Code", "1"], on: fixture.library).requireSuccess()
        #expect(scratched.stdoutString == "removed bookmark 1 at 0:01\n", "\(scratched.stdoutString)")

        // When each bookmarks the book out of time order, A and B both at 0:03 (A first), and they sync
        let madeA = try run(["bookmarks", "add", "Code", "--at", "8", "--note", "a late"], on: libraryA).requireSuccess()
        _ = try run(["bookmarks", "add", "Code", "--at", "3", "--note", "a early"], on: libraryA).requireSuccess()
        _ = try run(["bookmarks", "add", "Code", "--at", "5", "--note", "b middle"], on: fixture.library).requireSuccess()
        _ = try run(["bookmarks", "add", "Code", "--at", "3", "--note", "b early"], on: fixture.library).requireSuccess()
        for library in [libraryA, fixture.library, libraryA] { _ = try run(["sync", "now"], on: library).requireSuccess() }

        // Then making one answered with its number, and both list the four with the same numbers, by
        // time in the book, the two at 0:03 in the order they were made
        #expect(madeA.stdoutString == "bookmark 1 at 0:08: a late\n", "\(madeA.stdoutString)")
        let expected = "1  0:03  a early\n2  0:03  b early\n3  0:05  b middle\n4  0:08  a late\n"
        #expect(try run(["bookmarks", "Code"], on: libraryA).stdoutString == expected)
        #expect(try run(["bookmarks", "Code"], on: fixture.library).stdoutString == expected)
        // though the libraries' own ids for them differ
        struct Listed: Decodable { let number: String; let id: Int64; let note: String? }
        func listed(_ library: String) throws -> [Listed] {
            try run(["bookmarks", "--json", "Code"], on: library).stdoutString.split(separator: "\n")
                .map { try JSONDecoder().decode(Listed.self, from: Data($0.utf8)) }
        }
        let (inA, inB) = (try listed(libraryA), try listed(fixture.library))
        #expect(inA.map(\.number) == ["1", "2", "3", "4"] && inA.map(\.number) == inB.map(\.number) && inA.map(\.note) == inB.map(\.note))
        #expect(inA.last?.id != inB.last?.id, "A: \(inA.map(\.id)) B: \(inB.map(\.id))")

        // When B removes 2 by its number and they sync, both number the rest 1 to 3 again
        #expect(try run(["bookmarks", "rm", "Code", "2"], on: fixture.library).requireSuccess().stdoutString == "removed bookmark 2 at 0:03\n")
        for library in [fixture.library, libraryA] { _ = try run(["sync", "now"], on: library).requireSuccess() }
        let left = "1  0:03  a early\n2  0:05  b middle\n3  0:08  a late\n"
        #expect(try run(["bookmarks", "Code"], on: libraryA).stdoutString == left)
        #expect(try run(["bookmarks", "Code"], on: fixture.library).stdoutString == left)
    }
}
