import Foundation
import TestSupport
import Testing

/// The library commands inside the REPL, through the real binary, read back with the CLI.
@Suite(.serialized) struct ReplLibraryTests {
    /// A folder "Dune" of two MP3s, 4 s and 6 s long (their durations tell them apart).
    static func duneFolder(in abplayer: AbplayerProcess) throws -> URL {
        let folder = abplayer.home.appending(path: "import/Dune")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try Fixtures.mp3(seconds: 4, vbr: false), to: folder.appending(path: "01.mp3"))
        try FileManager.default.copyItem(at: try Fixtures.mp3(seconds: 6, vbr: false), to: folder.appending(path: "02.mp3"))
        return folder
    }

    static func books(_ abplayer: AbplayerProcess, library: String) throws -> [LibraryCommandTests.BookJSON] {
        let result = try abplayer.run(["books", "--json", "--library", library])
        _ = try result.requireSuccess()
        return try result.stdoutString.split(separator: "\n").map {
            try JSONDecoder().decode(LibraryCommandTests.BookJSON.self, from: Data($0.utf8))
        }
    }

    @Test func shelvesImportAndBookEditsWorkFromTheCurrentShelf() throws {
        // Given a library with "Ender's Game" on "Science Fiction", and a folder "Dune" to import
        let (abplayer, library) = try ReplTests.library("repl-library")
        let dune = try Self.duneFolder(in: abplayer)

        // When the REPL, in "Science Fiction", makes a shelf, imports onto it, lists and reorders the items
        let result = try abplayer.run(["-c", "cd \"Science Fiction\"; shelf new Classics; import \(dune.path) --shelf Classics; "
                                       + "book items Dune; book reorder Dune 2 1; book items Dune; book fly; "
                                       + "cd Classics; shelf rename . Old; shelf mv /Science\\ Fiction/Old /; ls",
                                       "--library", library])

        // Then the shelf is made under the current one, the import lands there with a summary
        // line, the items are listed with their durations, and the bad action is one line
        let lines = result.stdoutString.split(separator: "\n").map(String.init)
        #expect(lines.contains("created /Science Fiction/Classics"), "\(lines)")
        #expect(lines.contains("#2 Dune (2 files)"), "\(lines)")
        #expect(lines.contains("1 new book, 2 files imported, 0 already present, 0 skipped (into /Science Fiction/Classics)"), "\(lines)")
        let items = lines.filter { $0.hasPrefix("1. ") || $0.hasPrefix("2. ") }
        #expect(items.map { String($0.suffix(4)) } == ["0:04", "0:06", "0:06", "0:04"], "\(lines)")
        #expect(result.stderr == "book: 'fly' is not an action: use rename, mv, rm, items, reorder, add, remove\n")
        // and renaming and moving the shelf it is in keeps the REPL in it: `ls` lists Dune
        #expect(lines.last?.hasPrefix("#2 Dune") == true, "\(lines)")
        #expect(result.status == 1)
        // and the library, read back by the CLI, has Dune on that shelf (renamed Old, moved to
        // the top) in the new order
        let dunes = try Self.books(abplayer, library: library).filter { $0.title == "Dune" }
        #expect(dunes.map(\.shelf) == ["Old"])

        // When a script imports a folder holding a file that is no audio
        let mixed = abplayer.home.appending(path: "mixed/Book")
        try FileManager.default.createDirectory(at: mixed, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try Fixtures.mp3(seconds: 3, vbr: false), to: mixed.appending(path: "01.mp3"))
        try "not audio".write(to: mixed.appending(path: "02.mp3"), atomically: true, encoding: .utf8)
        let partial = try abplayer.run(["-c", "import \(mixed.path)", "--library", library])
        // Then the book is imported, the file named, and the exit status says not all of it was
        #expect(partial.stdoutString.contains("1 new book, 1 file imported, 0 already present, 1 skipped"), "\(partial.stdoutString)")
        #expect(partial.stderr.contains("02.mp3"), "\(partial.stderr)")
        #expect(partial.status == 1)
        #expect(dunes.first?.items.map { $0.durationSeconds?.rounded() } == [6, 4])
    }

    @Test func renamingTheBookPlayingShowsInStatusAndArtTakesRelativeShelves() throws {
        // Given a library with "Ender's Game" on "Science Fiction"
        let (abplayer, library) = try ReplTests.library("repl-library-rename")

        // When the book playing is renamed, and the gallery is asked for '..' from inside the shelf
        let result = try abplayer.run(["-c", "play Ender; book rename Ender \"Ender's Shadow\"; status --json; "
                                       + "cd \"Science Fiction\"; art ..", "--output", "null", "--library", library])

        // Then status has the new title, and the gallery (plain lines without a terminal) lists
        // the books from the top
        #expect(result.status == 0, "\(result.stderr)")
        let json = result.stdoutString.split(separator: "\n").first { $0.hasPrefix("{") }.map(String.init) ?? ""
        #expect(json.contains("\"book\":\"Ender's Shadow\""), "\(json)")
        let listed = result.stdoutString.split(separator: "\n").filter { $0.hasPrefix("#") && $0.contains("Ender's Shadow") && $0.hasSuffix("%") }
        #expect(listed.count == 1, "\(result.stdoutString)")
    }

    @Test func bookmarksHistoryExportAndImportState() throws {
        // Given a book played to 0:25 with a bookmark there
        let (abplayer, library) = try ReplTests.library("repl-library-state")
        // (playing on until a place past it is saved, so that a listening session is recorded)
        _ = try ReplTests.runHoldingInput(abplayer, library: library, typing: "play Ender\\nseek 0:25\\nbookmark the duel",
                                          then: "status") {
            (try ListenTests.savedSeconds(abplayer, library: library) ?? 0) >= 25.5
        }.requireSuccess()
        let exported = try #require(try ListenTests.savedSeconds(abplayer, library: library))
        let state = abplayer.home.appending(path: "state.json").path

        // When the REPL, with nothing playing, lists that book's bookmarks and history, and
        // exports the state; then the position is moved and the state imported back
        let first = try abplayer.run(["-c", "bookmarks Ender; history; export \(state)", "--library", library])
        _ = try abplayer.run(["-c", "play Ender; seek 0:05", "--output", "null", "--library", library]).requireSuccess()
        let second = try abplayer.run(["-c", "import-state \(state); import-state /nonexistent.json", "--library", library])

        // Then the bookmark is 0:25 into the book, in item 2 (its chapter), with its note (the time as it was said
        // when made, `bookmark 1 at 0:25`), the session shows, the export
        // names one book, and the import restores the position exported (past 0:25)
        #expect(first.status == 0, "\(first.stderr)")
        let lines = first.stdoutString.split(separator: "\n").map(String.init)
        #expect(lines.first == "1  0:25  chapter 2: Part 2  the duel", "\(lines)")
        #expect(lines.contains { $0.hasSuffix("Ender's Game") && $0.contains("x1.0") }, "\(lines)")
        // (its time in local time, as sync status says times: listened just now: "today HH:MM", or "yesterday" just past midnight)
        #expect(lines.contains { $0.hasSuffix("Ender's Game") && $0.wholeMatch(of: /(today|yesterday) \d\d:\d\d  .*/) != nil }, "\(lines)")
        #expect(lines.last == "exported 1 book to \(state)")
        #expect(second.stdoutString == "1 book restored, 0 not found\n")
        #expect(second.stderr.hasPrefix("import-state: /nonexistent.json: not a readable abplayer state file"), "\(second.stderr)")
        #expect(second.status == 1)
        let saved = try #require(try ListenTests.savedSeconds(abplayer, library: library))
        #expect(exported >= 25 && abs(saved - exported) < 0.01, "saved \(saved) s, exported \(exported) s")
    }

    @Test func removingTheBookPlayingStopsItFirstAndRemovingItsItemsKeepsItsPlace() throws {
        // Given Ender's Game left at 0:25, and Dune imported
        let (abplayer, library) = try ReplTests.library("repl-library-rm")
        _ = try abplayer.run(["-c", "play Ender; seek 0:25", "--output", "null", "--library", library]).requireSuccess()
        _ = try abplayer.run(["import", "--library", library, try Self.duneFolder(in: abplayer).path]).requireSuccess()

        // When Dune plays and is removed, then an item of Ender's Game is removed while it plays
        let script = "play Dune\nbook rm Dune\nstatus\nplay Ender\nbook remove Ender 1\nbook items Ender\n"
        let result = try Command.run(BuildProducts.abplayer.path, ["--output", "null", "--library", library],
                                     stdin: Data(script.utf8), environment: abplayer.environment)

        // Then the deletion stops playback first (saying so) and `status` finds nothing playing;
        // the removal of an item stops Ender's Game, and loads it again where it was (25 s in:
        // 5 s into what was item 2, now item 1), playing on; nothing crashes
        let lines = result.stdoutString.split(separator: "\n").map(String.init)
        #expect(lines.contains("stopped Dune (position saved): it is being deleted"), "\(lines)")
        #expect(lines.contains("Ender's Game: items are being removed from it; playing on at 0:05"), "\(lines)")
        // (MPRIS says in one line that it is off when the test machine has no session bus.)
        #expect(result.stderr.split(separator: "\n").filter { !$0.hasPrefix("MPRIS is off: ") }
            == ["status: nothing is playing: 'play BOOK' first"], "\(result.stderr)")
        let books = try Self.books(abplayer, library: library)
        #expect(books.map(\.title) == ["Ender's Game"])
        #expect(books.first?.items.count == 1)
        let listed = try abplayer.run(["books", "--json", "--library", library]).stdoutString
        let position = try JSONDecoder().decode(ListenTests.BookJSON.self, from: Data(listed.utf8)).positionSeconds
        #expect(abs((position ?? -1) - 5) < 0.6, "\(listed)")
    }

    @Test func aFileMovedFarAwayIsFoundByRescanningTheFolderItIsIn() throws {
        // Given Dune imported, and its second file moved to a folder nowhere above its old place
        let (abplayer, library) = try ReplTests.library("repl-rescan")
        let dune = try Self.duneFolder(in: abplayer)
        _ = try abplayer.run(["-c", "import \(dune.path)", "--library", library]).requireSuccess()
        let elsewhere = abplayer.home.appending(path: "elsewhere/deep")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: dune.appending(path: "02.mp3"), to: elsewhere.appending(path: "renamed.mp3"))
        // When the REPL rescans the book without a folder, plays it, then rescans with that folder
        let result = try abplayer.run(["-c", "rescan Dune; play Dune; rescan Dune \(elsewhere.path)", "--output", "null", "--library", library])
        // Then playing says the file is missing and how to find it: rescan with the folder it is in now
        #expect(result.stderr.contains("02.mp3 is missing; if it moved, 'rescan FOLDER'"), "\(result.stderr)")
        // and the plain rescan cannot find it, while the one given the folder does
        let lines = result.stdoutString.split(separator: "\n").map(String.init)
        #expect(lines.contains("0 moved, 0 back, 1 missing"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("moved: ") && $0.hasSuffix("elsewhere/deep/renamed.mp3") }, "\(lines)")
        #expect(lines.contains("1 moved, 0 back, 0 missing"), "\(lines)")
        // and the book plays again
        let again = try abplayer.run(["-c", "play Dune; status", "--output", "null", "--library", library])
        #expect(again.status == 0 && again.stdoutString.contains("item 1/2"), "\(again.stdoutString) \(again.stderr)")
    }
}
