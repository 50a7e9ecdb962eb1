import Foundation
import TestSupport
import Testing

/// `listen` when its output cannot be opened at the start: the same rule as a lost output (one
/// line, the place kept, tried again until it opens), and a run stopped before anything played
/// fails without touching the saved place.
extension ListenTests {
    /// Saves a place 7 s into the book's first item: the REPL goes there and quits (no real
    /// time involved, so a starved test task cannot let the book play to its end meanwhile).
    static func savePlace(_ abplayer: AbplayerProcess, library: String) throws -> Double {
        let repl = try ReplPipeProcess(abplayer, arguments: ["--library", library, "--output", "null"])
        repl.send("play 1")
        repl.send("goto 1 0:07")
        #expect(repl.quit() == 0, "\(repl.stderrLines)")
        let saved = try #require(try savedSeconds(abplayer, library: library))
        #expect(abs(saved - 7) < 0.01, "saved \(saved) s")
        return saved
    }

    @Test func anOutputNotThereAtTheStartIsWaitedForAndTheBookPlaysFromItsSavedPlace() async throws {
        // Given a book saved past its start, and a PulseAudio server whose address is known but
        // which is not running
        let (abplayer, library) = try Self.libraryWithBook("listen-wait-output")
        let saved = try Self.savePlace(abplayer, library: library)
        let pulse = try PulseServer()
        pulse.stop()
        // When the book is listened to through it
        let listening = try ListeningProcess(abplayer, arguments: ["listen", "--output", "pulse", "--library", library, "1"],
                                             environment: pulse.environment)
        // Then one line says the output is unavailable, and nothing plays while the tries fail
        _ = try #require(await listening.waitForLine(containing: "output unavailable"), "stderr: \(listening.errorOutput)")
        await letRealTimePass(seconds: 2, because: "the tries while the server is down (backing off up to 2 s) must stay quiet and play nothing")
        let unavailable = listening.errorOutput.split(separator: "\n").filter { $0.contains("output unavailable") }
        #expect(unavailable.count == 1, "stderr: \(listening.errorOutput)")
        #expect(unavailable.first?.hasPrefix("abplayer: ") == true)
        #expect(!listening.errorOutput.contains("playing #"), "stderr: \(listening.errorOutput)")
        // When the server starts (at that address)
        try pulse.start()
        // Then the book plays from its saved place (within the longest backoff, 2 s, and slack)
        let playing = try #require(await listening.waitForLine(containing: "playing #", timeout: .seconds(20)),
                                   "stderr: \(listening.errorOutput)")
        let startedAt = try #require(Self.startSeconds(playing.line))
        #expect(abs(startedAt - saved) < 0.3, "started at \(startedAt) s, saved \(saved) s")
        listening.signal(SIGTERM)
        #expect(await listening.waitForExit() == 0, "stderr: \(listening.errorOutput)")
    }

    @Test func stoppedBeforeItsOutputEverOpenedItExitsNonZeroAndTheSavedPlaceIsUnchanged() async throws {
        // Given a book saved past its start, and no PulseAudio running
        let (abplayer, library) = try Self.libraryWithBook("listen-never-played")
        let saved = try Self.savePlace(abplayer, library: library)
        let pulse = try PulseServer()
        pulse.stop()
        let listening = try ListeningProcess(abplayer, arguments: ["listen", "--output", "pulse", "--library", library, "1"],
                                             environment: pulse.environment)
        _ = try #require(await listening.waitForLine(containing: "output unavailable"), "stderr: \(listening.errorOutput)")
        // When it is stopped with SIGTERM before the output ever opened, while it retries (once
        // its handler is in place: a SIGTERM within milliseconds of the start was once lost under
        // load, the handler not yet installed -- TerminationSignals' own race, not this behaviour's)
        #expect(await waitUntil(within: 30) { listening.catches(SIGTERM) }, "no SIGTERM handler: \(listening.errorOutput)")
        let clock = ContinuousClock()
        let signalled = clock.now
        listening.signal(SIGTERM)
        let status = await listening.waitForExit()
        // Then it exits non-zero within a second (3 s allowed for a loaded machine; the exit as
        // Foundation saw it), saying so, and the saved place is where it was
        #expect(status == 1, "stderr: \(listening.errorOutput)")
        let took = (listening.exited.value ?? clock.now) - signalled
        #expect(took < .seconds(3), "exited \(took) after SIGTERM")
        #expect(listening.errorOutput.contains("stopped before anything played"), "stderr: \(listening.errorOutput)")
        let after = try #require(try Self.savedSeconds(abplayer, library: library))
        #expect(abs(after - saved) < 0.001, "saved \(saved) s before, \(after) s after")
    }
}
