import Foundation
import Synchronization
import TestSupport
import Testing

/// The REPL through the real binary: `-c` scripts, commands on standard input, and a terminal
/// session in tmux. Books play in real time to the null output.
@Suite(.serialized) struct ReplTests {
    /// What `status --json` prints (the fields checked here).
    struct StatusJSON: Decodable {
        let book: String
        let itemNumber: Int
        let itemCount: Int
        let itemPosition: Double
        let bookPosition: Double?
        let bookDuration: Double?
        let state: String
        let output: String
    }

    /// A library with "Ender's Game" (two 20 s MP3s) on the shelf "Science Fiction".
    static func library(_ name: String) throws -> (AbplayerProcess, String) {
        let (abplayer, library) = try ListenTests.libraryWithBook(name)
        _ = try abplayer.run(["book", "rename", "--library", library, "Listen Book", "Ender's Game"]).requireSuccess()
        _ = try abplayer.run(["book", "mv", "--library", library, "Ender's Game", "Science Fiction"]).requireSuccess()
        return (abplayer, library)
    }

    static func statuses(_ result: CommandResult) throws -> [StatusJSON] {
        try result.stdoutString.split(separator: "\n").filter { $0.hasPrefix("{") }.map {
            try JSONDecoder().decode(StatusJSON.self, from: Data($0.utf8))
        }
    }

    @Test func aScriptSeeksReportsJSONAndSavesThePosition() throws {
        // Given a book never played
        let (abplayer, library) = try Self.library("repl-script")

        // When a script plays it, seeks and asks for the status
        let result = try abplayer.run(["-c", "play \"Ender's Game\"; seek 0:25; status --json", "--output", "null", "--library", library])

        // Then every command succeeded, the status is 5 s into the second item (25 s into the book)
        #expect(result.status == 0, "\(result.stderr)")
        let status = try #require(try Self.statuses(result).first, "\(result.stdoutString)")
        #expect(status.book == "Ender's Game")
        #expect((status.itemNumber, status.itemCount) == (2, 2))
        #expect(abs(status.itemPosition - 5) < 0.5, "\(status.itemPosition)")
        #expect(abs((status.bookPosition ?? -1) - 25) < 0.5)
        #expect(abs((status.bookDuration ?? 0) - 40) < 0.2)
        #expect(status.output == "null")
        // and the library kept that place
        let saved = try #require(try ListenTests.savedSeconds(abplayer, library: library))
        #expect(abs(saved - 25) < 0.5, "saved \(saved) s")
    }

    @Test func playWithNothingLoadedCarriesOnWithTheBookListenedToLast() throws {
        // Given a book last left at 0:25
        let (abplayer, library) = try Self.library("repl-play-last")
        _ = try abplayer.run(["-c", "play Ender; seek 0:25", "--output", "null", "--library", library]).requireSuccess()

        // When a new REPL is told just 'play' (as a media key's Play would)
        let result = try abplayer.run(["-c", "play; status --json", "--output", "null", "--library", library])

        // Then that book plays on from its place
        #expect(result.status == 0, "\(result.stderr)")
        let status = try #require(try Self.statuses(result).first, "\(result.stdoutString)")
        #expect(status.book == "Ender's Game")
        #expect(abs((status.bookPosition ?? -1) - 25) < 0.5, "\(String(describing: status.bookPosition))")
    }

    @Test func commandsComeFromStandardInputOnePerLine() throws {
        // Given a book last left at 0:25
        let (abplayer, library) = try Self.library("repl-stdin")
        _ = try abplayer.run(["-c", "play Ender; seek 0:25", "--output", "null", "--library", library]).requireSuccess()

        // When commands come on standard input (not a terminal)
        // (the empty line does not toggle: only typed at the prompt does it)
        let script = "ls\ncd \"Science Fiction\"\nls\nplay Ender\n\nstatus --json\n-10\nstatus --json\n"
        let result = try Command.run(BuildProducts.abplayer.path, ["--output", "null", "--library", library],
                                     stdin: Data(script.utf8), environment: abplayer.environment)

        // Then no prompt is shown, the shelf and the book are listed, play resumed at 0:25 and
        // -10 went back across the item boundary to 0:15
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdoutString.contains("abplayer />"))
        let lines = result.stdoutString.split(separator: "\n").map(String.init)
        #expect(lines.first == "Science Fiction/")
        #expect(lines.contains { $0.hasPrefix("#1 Ender's Game") && $0.contains("0:40") })
        let statuses = try Self.statuses(result)
        #expect(statuses.count == 2)
        #expect(abs((statuses.first?.bookPosition ?? -1) - 25) < 0.6)
        #expect(statuses.map(\.state) == ["playing", "playing"])
        #expect(statuses.last?.itemNumber == 1)
        #expect(abs((statuses.last?.bookPosition ?? -1) - 15) < 0.6)
    }

    @Test func undoGoesBackToBeforeEachJump() throws {
        let (abplayer, library) = try Self.library("repl-undo")

        // When the listener jumps twice and undoes twice
        let result = try abplayer.run(["-c", "play Ender; seek 0:10; seek 0:30; undo; status --json; undo; status --json; undo",
                                       "--output", "null", "--library", library])

        // Then the first undo goes back to 0:10, the second to where playing started, and a
        // third has nothing to undo: one line, a failure exit
        let statuses = try Self.statuses(result)
        #expect(statuses.map { ($0.bookPosition ?? -1).rounded() } == [10, 0])
        #expect(result.status == 1)
        #expect(result.stderr == "undo: no jump to undo\n")
    }

    @Test func aBadCommandIsOneLineAndTheRestStillRun() throws {
        let (abplayer, library) = try Self.library("repl-bad")

        let result = try abplayer.run(["-c", "play Ender; fly to 0:07; seek 1:99; seek 0:07; volume 200; status --json",
                                       "--output", "null", "--library", library])

        // Then each bad command is one line saying what is right, the exit is a failure, and
        // the good commands after them ran
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n") == [
            "unknown command 'fly': 'help' lists the commands",
            "seek: '1:99' is not a time: use a time from the start (90, 1:30, 1:02:03.250, 90s, 30m, 1h or 1h30m), "
                + "+/- an amount (+90, -5m) or a share from 0% to 100% (50%)",
            "volume: '200' is out of range: use a volume from 0 to 150 percent (80 or 80%)",
        ])
        let status = try #require(try Self.statuses(result).first)
        #expect(abs((status.bookPosition ?? -1) - 7) < 0.5)
    }

    @Test func aTimeTooLargeForAnyBookIsRefusedInOneLineNotACrash() throws {
        // Given a book playing
        let (abplayer, library) = try Self.library("repl-huge-time")

        // When times of twenty digits are typed (seconds past what a whole number holds)
        let huge = "99999999999999999999"
        let result = try abplayer.run(["-c", "play Ender; seek \(huge); +\(huge); -\(huge); sleep +\(huge); seek 0:07; status --json",
                                       "--output", "null", "--library", library])

        // Then each is refused or held to the book's ends, and the commands after them ran
        #expect(result.status == 1, "stderr: \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").allSatisfy { !$0.contains("Fatal error") }, "stderr: \(result.stderr)")
        let status = try #require(try Self.statuses(result).first, "stdout: \(result.stdoutString) stderr: \(result.stderr)")
        #expect(abs((status.bookPosition ?? -1) - 7) < 0.5)
    }

    @Test func playbackGoesOnInRealTimeWhileTheScriptWaits() throws {
        // Given a book playing from standard input, the input held open (nothing typed) until
        // the player has saved a place 1.5 s in
        let (abplayer, library) = try Self.library("repl-realtime")
        let clock = ContinuousClock()
        let started = clock.now
        let result = try Self.runHoldingInput(abplayer, library: library, typing: "play Ender", then: "status --json") {
            (try ListenTests.savedSeconds(abplayer, library: library) ?? 0) >= 1.5
        }
        let elapsed = (clock.now - started).seconds

        // Then the position advanced while it played, by no more than the wall time
        #expect(result.status == 0, "\(result.stderr)")
        let status = try #require(try Self.statuses(result).first, "\(result.stdoutString)")
        #expect(status.state == "playing")
        #expect(status.itemPosition > 1.0, "\(status.itemPosition)")
        #expect(status.itemPosition <= elapsed + 0.1, "\(status.itemPosition) s after \(elapsed) s")
    }

    /// Runs the REPL on `library` (null output) with `first` typed on its standard input, then
    /// holds the input open, typing nothing, until `ready` holds (60 s at most; a look that throws,
    /// as a library read while the REPL opens it may, counts as not yet), types `then` and closes
    /// it; the run's result.
    static func runHoldingInput(_ abplayer: AbplayerProcess, library: String, typing first: String, then: String,
                                until ready: () throws -> Bool) throws -> CommandResult {
        let flag = abplayer.home.appending(path: "type-on-\(UUID().uuidString.prefix(6))").path
        let shell = "printf '\(first)\\n'; while [ ! -e '\(flag)' ]; do sleep 0.05; done; printf '\(then)\\n'"
        let command = "(\(shell)) | '\(BuildProducts.abplayer.path)' --output null --library '\(library)'"
        let outcome = Mutex<Result<CommandResult, any Error>?>(nil)
        let environment = abplayer.environment
        Thread.detachNewThread {
            let result = Result { try Command.run("/bin/sh", ["-c", command], environment: environment) }
            outcome.withLock { $0 = result }
        }
        // Twice a second: a look may be a process (a debug build's start, CPU other tests need).
        let wasReady = waitUntil(within: 60, every: 0.5) { outcome.withLock { $0 } != nil || (try? ready()) == true }
        _ = FileManager.default.createFile(atPath: flag, contents: nil)
        #expect(wasReady, "not ready within 60 s")
        _ = waitUntil(within: 150) { outcome.withLock { $0 } != nil }
        return try #require(outcome.withLock { $0 }).get()
    }

    @Test func treeAndShelvesShowTheBooksAtTheTopLevelToo() throws {
        // Given Ender's Game moved off its shelf to the top level, beside two shelves
        let (abplayer, library) = try Self.library("repl-tree-top")
        _ = try abplayer.run(["-c", "book mv Ender /; shelf new Empty", "--library", library]).requireSuccess()
        // When the tree is shown in the REPL and by `abplayer shelves`
        let tree = try abplayer.run(["-c", "tree", "--library", library]).requireSuccess()
        let shelves = try abplayer.run(["shelves", "--library", library]).requireSuccess()
        // Then the book is listed first, at the top level, then the shelves
        #expect(tree.stdoutString.split(separator: "\n").map(String.init) == [
            "#1 Ender's Game  0:40  0%", "Empty/  (0 books)", "Science Fiction/  (0 books)",
        ], "\(tree.stdoutString)")
        #expect(shelves.stdoutString == tree.stdoutString)
    }

    @Test func findAndTreeShowWhereBooksAre() throws {
        let (abplayer, library) = try Self.library("repl-find")

        let result = try abplayer.run(["-c", "find end; tree; find Zzz", "--library", library])

        // Then find (any case) names the book with its shelf, tree shows the shelf with the book
        // on it, and a search that finds nothing is one line and a failure
        #expect(result.stdoutString.split(separator: "\n").map(String.init) == [
            "/Science Fiction  #1 Ender's Game  0:40  0%",
            "Science Fiction/  (1 book)",
            "  #1 Ender's Game  0:40  0%",
        ])
        #expect(result.stderr == "find: no book's title, author or narrator contains 'Zzz'\n")
        #expect(result.status == 1)
    }
}
