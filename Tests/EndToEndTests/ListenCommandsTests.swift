import Foundation
import TestSupport
import Testing

/// `abplayer listen` takes the REPL's commands on its standard input (one grammar for every face
/// of the player), answers them on standard output, and plays on when that input ends.
@Suite struct ListenCommandsTests {
    @Test func listenRunsTheREPLsCommandsFromItsInputAndPlaysOnWhenTheInputEnds() async throws {
        // Given `listen` playing a book of two 20 s items, its standard input a pipe
        let (abplayer, library) = try ListenTests.libraryWithBook("listen-commands")
        let listen = try ReplPipeProcess(abplayer, arguments: ["listen", "--output", "null", "--library", library, "Listen Book"])

        // When `status --json` is typed, then it says what plays, as the REPL says it
        let status = try #require(try await offThePool { listen.status() }, "\(listen.stderrLines)")
        #expect(status.book == "Listen Book" && status.state == "playing", "\(status)")
        // and `+10` skips, `bookmark` bookmarks, `next` goes to the next item
        listen.send("+10")
        #expect(try await offThePool { listen.waitForLine(containing: "0:1") } != nil, "\(listen.stdoutLines)")
        listen.send("bookmark the storm")
        #expect(try await offThePool { listen.waitForLine(containing: "bookmarked #") } != nil, "\(listen.stdoutLines)")
        listen.send("next")
        let moved = try await offThePool { listen.status() }
        #expect(moved?.itemNumber == 2, "\(listen.stdoutLines)")
        // and a wrong command is one line on standard error, and it plays on
        listen.send("frobnicate")
        #expect(await waitUntil(within: 20, every: 0.05) { listen.stderrLines.contains { $0.contains("unknown command 'frobnicate'") } },
                "\(listen.stderrLines)")
        #expect(try await offThePool { listen.status() }?.state == "playing")

        // When its input ends
        listen.closeInput()
        // Then the book plays on (its place keeps being saved) until a signal stops it, saved
        let place = try #require(try ListenTests.savedSeconds(abplayer, library: library))
        #expect(await ListenTests.waitForSavedPlace(abplayer, library: library, atLeast: place + 2))
        kill(listen.process.processIdentifier, SIGTERM)
        #expect(try await offThePool { listen.process.exitStatus(killingAfter: 20) } == 0, "\(listen.stderrLines)")

        // and `quit` typed to a listen saves and ends it with status 0
        let again = try ReplPipeProcess(abplayer, arguments: ["listen", "--output", "null", "--library", library, "Listen Book"])
        #expect(try await offThePool { again.status() }?.state == "playing", "\(again.stderrLines)")
        // (once heard: stopped before anything played, `listen` did not do its job, and exits 1)
        #expect(await waitUntil(within: 30, every: 0.05) { again.stderrLines.contains { $0.contains("abplayer: playing #") } },
                "\(again.stderrLines)")
        #expect(try await offThePool { again.quit() } == 0, "\(again.stderrLines)")
    }
}
