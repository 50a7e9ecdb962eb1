import Foundation
import TestSupport
import Testing

/// `abplayer listen`, a real playing process: the position saved about every second survives
/// `kill -9`, a signal saves it exactly, and playback resumes where it was saved.
@Suite(.serialized) struct ListenTests {
    struct BookJSON: Decodable {
        let id: Int
        let title: String
        let positionSeconds: Double?
        let finished: Bool
    }

    /// A library holding one book of two 20 s MP3s.
    static func libraryWithBook(_ name: String) throws -> (AbplayerProcess, String) {
        let abplayer = try AbplayerProcess(name)
        let folder = abplayer.home.appending(path: "Listen Book")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try Fixtures.mp3(seconds: 20, vbr: true), to: folder.appending(path: "Part 1.mp3"))
        try FileManager.default.copyItem(at: try Fixtures.mp3(seconds: 20, vbr: false), to: folder.appending(path: "Part 2.mp3"))
        let library = abplayer.home.appending(path: "library.sqlite").path
        _ = try abplayer.run(["import", "--library", library, folder.path]).requireSuccess()
        return (abplayer, library)
    }

    static func savedSeconds(_ abplayer: AbplayerProcess, library: String) throws -> Double? {
        let result = try abplayer.run(["books", "--json", "--library", library])
        _ = try result.requireSuccess()
        return try JSONDecoder().decode(BookJSON.self, from: result.stdout).positionSeconds
    }

    /// Waits until the library holds a saved place at or past `seconds` (a playing `listen` saves
    /// about every second); false after `timeout`. Each look is an `abplayer books` process, run
    /// off the cooperative pool; one that fails counts as not yet. Twice a second: a look costs a
    /// debug build's start, CPU the tests running beside this one need.
    static func waitForSavedPlace(_ abplayer: AbplayerProcess, library: String, atLeast seconds: Double,
                                  timeout: Double = 60) async -> Bool {
        await waitUntil(within: timeout, every: 0.5) {
            ((try? await offThePool { try savedSeconds(abplayer, library: library) }) ?? nil ?? 0) >= seconds
        }
    }

    /// "abplayer: playing #1 Listen Book from item 1 at 0.046 s" -> seconds into the book's item.
    static func startSeconds(_ line: String) -> Double? {
        guard let at = line.range(of: " at ", options: .backwards) else { return nil }
        return Double(line[at.upperBound...].split(separator: " ")[0])
    }

    @Test func afterKill9TheSavedPositionIsAtMostASecondBehindWhatWasHeard() async throws {
        // Given a book playing in real time (null output)
        let (abplayer, library) = try Self.libraryWithBook("listen-kill9")
        let clock = ContinuousClock()
        let listening = try ListeningProcess(abplayer, arguments: ["listen", "--output", "null", "--library", library, "Listen Book"])
        let playing = try #require(await listening.waitForLine(containing: "playing"), "stderr: \(listening.errorOutput)")
        let started = playing.arrived
        let startSeconds = try #require(Self.startSeconds(playing.line))

        // When it is killed with SIGKILL once it has saved a place 2.5 s on (about 3 s of
        // playing), what was heard by then measured by the wall clock
        #expect(await Self.waitForSavedPlace(abplayer, library: library, atLeast: startSeconds + 2.5))
        let heard = startSeconds + (clock.now - started).seconds
        listening.signal(SIGKILL)
        #expect(await listening.waitForExit() == 128 + SIGKILL)

        // Then the saved position trails what was heard by at most 1 s (plus the output's 20 ms
        // period and a little for reading the pipe), and is not ahead of it
        let saved = try #require(try Self.savedSeconds(abplayer, library: library))
        #expect(saved <= heard + 0.15, "saved \(saved) s, heard \(heard) s")
        #expect(saved >= heard - 1.0 - 0.15, "saved \(saved) s, heard \(heard) s")
    }

    @Test func sigtermSavesTheExactPositionAndListeningResumesThere() async throws {
        // Given a book playing in real time
        let (abplayer, library) = try Self.libraryWithBook("listen-term")
        let clock = ContinuousClock()
        let first = try ListeningProcess(abplayer, arguments: ["listen", "--output", "null", "--library", library, "1"])
        let playing = try #require(await first.waitForLine(containing: "playing"), "stderr: \(first.errorOutput)")
        let started = playing.arrived
        let startSeconds = try #require(Self.startSeconds(playing.line))

        // When it gets SIGTERM once it has saved a place 1.5 s on (about 2 s of playing), what
        // was heard by then measured
        #expect(await Self.waitForSavedPlace(abplayer, library: library, atLeast: startSeconds + 1.5))
        let heard = startSeconds + (clock.now - started).seconds
        first.signal(SIGTERM)

        // Then it exits cleanly, having saved where it was (not rounded down to the last second)
        #expect(await first.waitForExit() == 0, "stderr: \(first.errorOutput)")
        let saved = try #require(try Self.savedSeconds(abplayer, library: library))
        #expect(abs(saved - heard) < 0.3, "saved \(saved) s, heard \(heard) s")

        // When listening again, it starts from the saved position
        let second = try ListeningProcess(abplayer, arguments: ["listen", "--output", "null", "--library", library, "Listen"])
        let resumed = try #require(await second.waitForLine(containing: "playing"), "stderr: \(second.errorOutput)")
        second.signal(SIGINT)
        #expect(await second.waitForExit() == 0)
        let resumedAt = try #require(Self.startSeconds(resumed.line))
        #expect(resumed.line.contains("from item 1"))
        #expect(abs(resumedAt - saved) < 0.15, "resumed at \(resumedAt) s, saved \(saved) s")
    }
}

extension ListenTests {
    @Test func aSecondListenIsToldToStopTheFirstNotToUseRemote() async throws {
        // Given a listen playing the book
        let (abplayer, library) = try Self.libraryWithBook("listen-second")
        let first = try ListeningProcess(abplayer, arguments: ["listen", "--output", "null", "--library", library, "Listen"])
        #expect(await first.waitForLine(containing: "playing") != nil, "stderr: \(first.errorOutput)")
        // When a second listen starts on the same library
        let second = try abplayer.run(["listen", "--output", "null", "--library", library, "Listen"])
        // Then it refuses in one line that says how (remote cannot reach a listen: it has no socket)
        #expect(second.status == 1)
        #expect(second.stderr.hasPrefix("abplayer: another 'abplayer listen' is playing \(library); stop it first"), "\(second.stderr)")
        #expect(!second.stderr.contains("remote"))
        first.signal(SIGTERM)
        #expect(await first.waitForExit() == 0, "stderr: \(first.errorOutput)")
    }
}
