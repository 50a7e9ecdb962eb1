import Foundation
import TestSupport
import Testing

/// Closing the terminal, or the pipe abplayer writes to, under a playing book (issue 30): the
/// player stops as `quit` stops it — the place saved, the sync journal written, the control
/// socket removed — and exits 0; never SIGILL (a trapping write) nor SIGPIPE.
@Suite(.serialized) struct TerminalHangupTests {
    /// A REPL in a tmux window, started through a wrapper that outlives the window and writes
    /// abplayer's exit status to a file; a sync folder and a control socket folder of its own.
    struct HungUpRepl {
        let abplayer: AbplayerProcess
        let library: String
        let terminal: TmuxTerminal
        let runtime: String
        let syncFolder: URL
        let statusFile: URL

        init(_ name: String) throws {
            (abplayer, library) = try ReplTests.library(name)
            // Its own, in the test's folder (not /tmp/abp-*, which other runs' clean-up removes);
            // short enough for a socket's path (108 bytes).
            runtime = abplayer.home.appending(path: "rt").path
            try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            syncFolder = abplayer.home.appending(path: "sync")
            try FileManager.default.createDirectory(at: syncFolder, withIntermediateDirectories: true)
            _ = try abplayer.run(["sync", "dir", syncFolder.path, "--library", library]).requireSuccess()
            statusFile = abplayer.home.appending(path: "exit-status")
            // `trap : HUP` (not `trap '' HUP`, which abplayer would inherit as ignored): the
            // wrapper lives on when the window closes, waits for abplayer and writes its status.
            let wrapper = abplayer.home.appending(path: "record-exit.sh")
            try "#!/bin/sh\ntrap : HUP\n\"$@\"\necho $? > '\(statusFile.path)'\n".write(to: wrapper, atomically: true, encoding: .utf8)
            _ = chmod(wrapper.path, 0o755)
            terminal = try TmuxTerminal(abplayer, name: name, arguments: ["--output", "null", "--library", library],
                                        environment: ["XDG_RUNTIME_DIR": runtime], wrapper: wrapper.path)
        }

        /// The control socket (or anything else of abplayer's) in the runtime folder.
        func socketFiles() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: runtime + "/abplayer") }

        var exitStatus: Int32? {
            (try? String(contentsOf: statusFile, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }

        /// The last place the sync journal holds, in seconds into its item (44.1 kHz fixtures).
        func journalPlace() throws -> (item: Int, seconds: Double)? {
            let names = try FileManager.default.contentsOfDirectory(atPath: syncFolder.path).filter { $0.hasSuffix(".abplayer-journal") }
            guard let name = names.first else { return nil }
            let text = try String(contentsOf: syncFolder.appending(path: name), encoding: .utf8)
            guard let line = text.split(separator: "\n").last(where: { $0.hasPrefix("P\t") }) else { return nil }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count >= 5, let item = Int(fields[3]), let frame = Double(fields[4]) else { return nil }
            return (item, frame / 44100)
        }

        func cleanUp() {
            terminal.stop()
        }

        /// Plays the book for about two seconds; what was heard, measured by `status --json`.
        func playForTwoSeconds() throws -> (seconds: Double, at: ContinuousClock.Instant) {
            #expect(terminal.waitFor("abplayer />") != nil, "\(terminal.screen())")
            #expect(waitUntil(within: 20) { ((try? socketFiles()) ?? []).contains { $0.hasPrefix("control") } }, "\(String(describing: try? socketFiles()))")
            try terminal.send(#"play "Ender's Game""#, "Enter")
            #expect(terminal.waitFor("playing #1 Ender's Game") != nil, "\(terminal.screen())")
            var heard = (seconds: 0.0, at: ContinuousClock.now)
            #expect(try waitUntil(within: 30, every: 0.2) {
                let status = try terminal.status()
                heard = (status.itemPosition, .now)
                return status.itemPosition >= 2
            }, "\(terminal.screen())")
            return heard
        }

        /// Closes the window as a listener would, and checks what the brief asks of the ending.
        func closeWindowAndCheckTheEnding(heard: (seconds: Double, at: ContinuousClock.Instant)) throws {
            // When the window is killed (tmux hangs up its terminal: SIGHUP, then EIO)
            let killed = ContinuousClock.now
            _ = try terminal.tmux(["kill-window"])
            let place = heard.seconds + (killed - heard.at).seconds

            // Then abplayer ends with status 0, at once
            #expect(waitUntil(within: 20) { exitStatus != nil }, "no exit status")
            let took = (ContinuousClock.now - killed).seconds
            #expect(exitStatus == 0, "exit status \(String(describing: exitStatus))")
            // (under a second when the machine keeps up; 2 s of slack for a loaded one)
            #expect(took < 3, "took \(took) s")
            // and the place heard is saved (the status was read up to 0.2 s late)
            let saved = try #require(try ListenTests.savedSeconds(abplayer, library: library))
            #expect(abs(saved - place) < 1, "saved \(saved) s, heard about \(place) s")
            // and the sync journal holds that place, written as the player closed
            let journal = try #require(try journalPlace(), "no place in the sync journal")
            #expect(journal.item == 0 && abs(journal.seconds - saved) < 0.1, "journal \(journal), saved \(saved)")
            // and no stale control socket is left
            let left = try socketFiles()
            #expect(left.filter { $0.hasPrefix("control") }.isEmpty, "\(left)")
        }
    }

    @Test func closingTheWindowOfAPlayingReplSavesSyncsRemovesTheSocketAndExitsZero() throws {
        // Given the REPL playing a book in a tmux window, a sync folder set
        let repl = try HungUpRepl("hangup-prompt")
        defer { repl.cleanUp() }
        let heard = try repl.playForTwoSeconds()

        // When the window is closed, then it ends as `quit` ends it
        try repl.closeWindowAndCheckTheEnding(heard: heard)
    }

    @Test func closingTheWindowUnderTheNowScreenEndsTheSameWay() throws {
        // Given the REPL playing a book with the `now` screen showing
        let repl = try HungUpRepl("hangup-now")
        defer { repl.cleanUp() }
        let heard = try repl.playForTwoSeconds()
        try repl.terminal.send("now", "Enter")
        #expect(repl.terminal.waitFor("item 0:0") != nil, "\(repl.terminal.screen())")

        // When the window is closed, then it ends as `quit` ends it
        try repl.closeWindowAndCheckTheEnding(heard: heard)
    }

    @Test func playStopsAndExitsZeroWhenTheReaderOfItsOutputLeaves() throws {
        // Given `play` of a 20 s file, its output read through a pipe, its commands on another
        let abplayer = try AbplayerProcess("hangup-play")
        let file = try Fixtures.mp3(seconds: 20, vbr: false)
        let process = Process()
        process.executableURL = BuildProducts.abplayer
        process.arguments = ["play", "--output", "null", file.path]
        process.environment = ProcessInfo.processInfo.environment.merging(abplayer.environment) { _, new in new }
        let output = Pipe(), commands = Pipe()
        // Foundation makes pipes without close-on-exec: a child another test starts meanwhile
        // would inherit this end too (Tests/Harness/close-inherited-fds.sh says how), and `play`
        // would never find its reader gone (seen once in a loaded run: still playing after 20 s).
        for end in [output.fileHandleForReading, commands.fileHandleForWriting] {
            _ = fcntl(end.fileDescriptor, F_SETFD, FD_CLOEXEC)
        }
        process.standardOutput = output
        process.standardInput = commands
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let reader = output.fileHandleForReading
        #expect(String(decoding: reader.availableData, as: UTF8.self).hasPrefix("playing "))

        // When the reader closes its end and a command makes `play` say something
        try reader.close()
        let closed = ContinuousClock.now
        commands.fileHandleForWriting.writeIgnoringClosedPipe(Data("status\n".utf8))

        // Then it stops at once with status 0: not killed by SIGPIPE, not trapped (SIGILL)
        // (`exitStatus` is 128 + the signal for a child killed by one. Not `terminationReason`:
        // asked before Foundation has seen the end that /proc already shows, it traps.)
        let status = process.exitStatus(killingAfter: 20)
        #expect(status == 0, "exit status \(String(describing: status)) (141: SIGPIPE, 132: SIGILL)")
        #expect((ContinuousClock.now - closed).seconds < 5)
    }

    @Test func listenSavesAndExitsZeroWhenTheReaderOfWhatItSaysLeaves() throws {
        // Given `listen` of a 3 s book, what it says (standard error) read by `head -c 1`,
        // which leaves after the first byte
        let (abplayer, library) = try ReplTerminalTests.toneLibrary("hangup-listen", seconds: 3)
        let statusFile = abplayer.home.appending(path: "listen-status")
        let script = "'\(BuildProducts.abplayer.path)' listen --output null --library '\(library)' Tone 2>&1 >/dev/null | head -c 1 >/dev/null;"
            + " echo \"${PIPESTATUS[0]}\" > '\(statusFile.path)'"

        // When `listen` says its next line to the closed pipe
        let result = try Command.run("/bin/bash", ["-c", script], environment: abplayer.environment, timeout: 60)
        _ = try result.requireSuccess()

        // Then it stops and exits 0 (not 141, SIGPIPE, nor 132, SIGILL), its place saved
        let status = try String(contentsOf: statusFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(status == "0", "exit status \(status)")
        let books = try abplayer.run(["books", "--json", "--library", library]).requireSuccess()
        let book = try JSONDecoder().decode(ListenTests.BookJSON.self, from: books.stdout)
        #expect(book.positionSeconds != nil || book.finished, "\(book)")
    }
}
