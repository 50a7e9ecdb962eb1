import Foundation
import TestSupport
import Testing

/// `abplayer listen` takes the REPL's commands on its standard input (one grammar for every face
/// of the player), answers them on standard output, and plays on when that input ends.
@Suite struct ListenCommandsTests {
    /// A library holding "Listen Book": two 60 s MP3s.
    static func library(_ name: String) throws -> (AbplayerProcess, String) {
        let abplayer = try AbplayerProcess(name)
        let folder = abplayer.home.appending(path: "Listen Book")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for part in 1...2 {
            try FileManager.default.copyItem(at: try Fixtures.mp3(seconds: 60, vbr: false), to: folder.appending(path: "Part \(part).mp3"))
        }
        let library = abplayer.home.appending(path: "library.sqlite").path
        _ = try abplayer.run(["import", "--library", library, folder.path]).requireSuccess()
        return (abplayer, library)
    }

    @Test func listenRunsTheREPLsCommandsFromItsInputAndPlaysOnWhenTheInputEnds() async throws {
        // Given `listen` playing a book of two 60 s items, its standard input a pipe, paused by
        // a `pause` typed to it (what follows does not race the audio however slow this test is)
        let (abplayer, library) = try Self.library("listen-commands")
        let listen = try ReplPipeProcess(abplayer, arguments: ["listen", "--output", "null", "--library", library, "Listen Book"])
        listen.send("pause")

        // When `status --json` is typed, then it says what is loaded, as the REPL says it
        let status = try #require(try await offThePool { listen.status() }, "\(listen.stderrLines)")
        #expect(status.book == "Listen Book" && status.state == "paused", "\(status)")
        // and `+10` skips 10 s, `bookmark` bookmarks, `next` goes to the next item
        let before = status.itemPosition
        listen.send("+10")
        #expect(try await offThePool { listen.waitForLine(containing: "/ 2:00 (") } != nil, "\(listen.stdoutLines) \(listen.stderrLines)")
        #expect(abs((try await offThePool { listen.status() }?.itemPosition ?? -1) - (before + 10)) < 0.1, "\(listen.stdoutLines)")
        listen.send("bookmark the storm")
        #expect(try await offThePool { listen.waitForLine(containing: "bookmark 1 at ") } != nil, "\(listen.stdoutLines)")
        listen.send("next")
        let moved = try await offThePool { listen.status() }
        #expect(moved?.itemNumber == 2 && moved?.itemPosition == 0, "\(listen.stdoutLines)")
        // and a wrong command is one line on standard error, and the rest goes on
        listen.send("frobnicate")
        #expect(await waitUntil(within: 20, every: 0.05) { listen.stderrLines.contains { $0.contains("unknown command 'frobnicate'") } },
                "\(listen.stderrLines)")
        listen.send("play")
        #expect(try await offThePool { listen.status() }?.state == "playing", "\(listen.stderrLines)")

        // When its input ends
        listen.closeInput()
        // Then the book plays on (its place keeps being saved) until a signal stops it, saved
        #expect(await ListenTests.waitForSavedPlace(abplayer, library: library, atLeast: 60 + 2))
        kill(listen.process.processIdentifier, SIGTERM)
        #expect(try await offThePool { listen.process.exitStatus(killingAfter: 20) } == 0, "\(listen.stderrLines)")

        // and `quit` typed to a listen saves and ends it with status 0
        let again = try ReplPipeProcess(abplayer, arguments: ["listen", "--output", "null", "--library", library, "Listen Book"])
        // (once heard: stopped before anything played, `listen` did not do its job, and exits 1)
        #expect(await waitUntil(within: 60, every: 0.05) { again.stderrLines.contains { $0.contains("abplayer: playing #") } },
                "\(again.stderrLines)")
        #expect(try await offThePool { again.quit() } == 0, "\(again.stderrLines)")
    }
}
