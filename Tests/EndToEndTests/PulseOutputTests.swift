import Foundation
import TestSupport
import Testing

extension OutputTests {
    /// The pulse plugin against a private PulseAudio, recorded from the null sink's monitor.
    @Suite struct PulseOutputTests {
        @Test func pauseIsSilenceThenTheSameSecondGoesOn() async throws {
            // Given abplayer playing an 8 s time-coded MP3 to a private PulseAudio
            let server = try PulseServer()
            let mp3 = try Fixtures.mp3(seconds: 8, vbr: true)
            let recording = try server.record()
            #expect(await recording.waitForMore(seconds: 0.1), "the recorder does not record")
            let player = try PlayerProcess(["--output", "pulse", mp3.path], environment: server.environment,
                                           home: try BuildProducts.temporaryDirectory("pulse-pause"))
            #expect(await waitForPlace(player, atLeast: 3 * 44100))
            // When it is paused until the recording holds two seconds of the pause (its length as
            // measured), and resumed
            player.send("pause")
            let clock = ContinuousClock()
            let pauseSent = clock.now
            #expect(await player.pausedPlace() != nil, "stdout: \(player.stdout)")
            let pauseSeen = clock.now
            #expect(await recording.waitForMore(seconds: 2), "the recorder stopped")
            let reported = await player.status()
            let resumeSent = clock.now
            player.send("resume")
            #expect(await player.playingPlace() != nil, "stdout: \(player.stdout)")
            let pauseLength = (resumeSent - pauseSeen) / .seconds(1)...(clock.now - pauseSent) / .seconds(1)
            let status = await player.waitForExit(timeout: 30)
            #expect(await recording.waitForMore(seconds: 0.3), "the recorder stopped")
            let recorded = try recording.finish()
            // Then the recording has one silence about as long as the pause, and the second heard
            // before it goes on after it, with nothing repeated or skipped beyond the output latency
            // (as for ALSA and JACK: `expectPauseThenContinuation` sets aside the one 50 ms window
            // of PulseAudio's rewind at the cork, seen here too, once in an unloaded run)
            #expect(status == 0, "stderr: \(player.stderr)")
            let track = SecondTrack(recorded.samples, channels: 2, rate: recorded.rate)
            OutputChecks.expectPauseThenContinuation(track, pauseLength: pauseLength, seconds: 0..<8)
            OutputChecks.expectWholeSeconds(recorded, track: track, seconds: 1...6)
            // and the position reported while paused is the frame the sink stopped at (the server
            // played that much audio before the silence): never more than 100 ms past it, which
            // would skip what was not heard when it resumes (so the output latency, a 200 ms target
            // buffer, was subtracted), and at most half a second before it, which it would say
            // again. PulseAudio's latency is a timing estimate, its error one way or the other:
            // beside stress-ng it was once 60 ms ahead (reported 139082, the server got 136427) and
            // once 312 ms behind (138836 against 152622); within 50 ms in every other run.
            let heard = try #require(OutputChecks.framesBeforeFirstSilence(recorded.samples, channels: 2, rate: recorded.rate))
            let heardSourceFrames = Int64((Double(heard) * 44100 / Double(recorded.rate)).rounded())
            let place = try #require(reported, "no status: \(player.stdout)")
            #expect(place.frame - heardSourceFrames < 44100 / 10, "reported \(place.frame), past the \(heardSourceFrames) the server got")
            #expect(heardSourceFrames - place.frame < 44100 / 2, "reported \(place.frame), long before the \(heardSourceFrames) the server got")
        }

        @Test func losingTheServerPausesAndItsReturnResumesFromThere() async throws {
            // Given abplayer playing a 10 s time-coded MP3 to a private PulseAudio
            let server = try PulseServer()
            let mp3 = try Fixtures.mp3(seconds: 10, vbr: true)
            let before = try server.record()
            #expect(await before.waitForMore(seconds: 0.1), "the recorder does not record")
            let player = try PlayerProcess(["--output", "pulse", mp3.path], environment: server.environment,
                                           home: try BuildProducts.temporaryDirectory("pulse-lost"))
            #expect(await waitForPlace(player, atLeast: 3 * 44100))
            // When the server dies mid-play
            server.stop()
            // Then the player says so in one line with the place kept, and waits
            #expect(await player.waitForStderr("output lost"), "stderr: \(player.stderr)")
            let heardBefore = SecondTrack(try before.finish().samples, channels: 2, rate: 48000)
            let lostLine = player.stderr.split(separator: "\n").first { $0.contains("output lost") }.map(String.init) ?? ""
            let kept = PlayerProcess.place(in: lostLine)
            await letRealTimePass(seconds: 1, because: "while the server stays dead the player must not say the output is back")
            #expect(!player.stderr.contains("output back"))
            // When the server comes back
            try server.start()
            let after = try server.record()
            // Then playback resumes from the kept place and runs to the end
            #expect(await player.waitForStderr("output back"), "stderr: \(player.stderr)")
            let status = await player.waitForExit(timeout: 30)
            #expect(await after.waitForMore(seconds: 0.3), "the recorder stopped")
            let recordedAfter = try after.finish()
            let heardAfter = SecondTrack(recordedAfter.samples, channels: 2, rate: recordedAfter.rate)
            #expect(status == 0, "stderr: \(player.stderr)")
            let lastBefore = try #require(heardBefore.seconds.last, "\(heardBefore)")
            let keptSecond = Int(try #require(kept, "\(lostLine)").frame / 44100)
            #expect(keptSecond == lastBefore || keptSecond == lastBefore + 1, "kept \(String(describing: kept)); before: \(heardBefore)")
            let firstAfter = try #require(heardAfter.seconds.first, "\(heardAfter)")
            #expect(firstAfter == keptSecond || firstAfter == keptSecond + 1, "after: \(heardAfter)")
            #expect(heardAfter.seconds.last == 9, "\(heardAfter)")
            // what was in flight when the server died is at most the output latency (200 ms); the
            // recording before can miss as much again of what the sink took (the server dies with
            // it undelivered to parec, hundreds of ms behind on a loaded machine)
            let keptSecondHeard = heardBefore.duration(of: keptSecond) + heardAfter.duration(of: keptSecond)
            #expect(keptSecondHeard > 0.55 && keptSecondHeard < 1.3, "before: \(heardBefore) after: \(heardAfter)")
            #expect(OutputChecks.distinct(heardBefore.seconds + heardAfter.seconds) == Array(0..<10),
                    "before: \(heardBefore) after: \(heardAfter)")
        }

        @Test func whenOurSinkGoesAwayPlaybackPausesUntilResumedWhereTheServerMovedIt() async throws {
            // Given two null sinks, abplayer playing to the second ("headphones")
            let server = try PulseServer()
            let headphones = try server.addNullSink("headphones")
            let mp3 = try Fixtures.mp3(seconds: 8, vbr: true)
            let speakers = try server.record()
            #expect(await speakers.waitForMore(seconds: 0.1), "the recorder does not record")
            let player = try PlayerProcess(["--output", "pulse:headphones", mp3.path], environment: server.environment,
                                           home: try BuildProducts.temporaryDirectory("pulse-moved"))
            #expect(await waitForPlace(player, atLeast: 3 * 44100))
            // When that sink is removed (the server moves our stream to its default sink)
            try server.unloadModule(headphones)
            // Then the player says so with the place, and stays paused there
            #expect(await player.waitForStderr("moved"), "stderr: \(player.stderr)")
            let movedLine = player.stderr.split(separator: "\n").first { $0.contains("moved") }.map(String.init) ?? ""
            #expect(await player.pausedPlace() != nil, "stdout: \(player.stdout)")
            await letRealTimePass(seconds: 1, because: "a stream the server moved must stay paused, not play on by itself there")
            #expect(await player.statusJSON()?.state == "paused", "stdout: \(player.stdout)")
            // When the user resumes, it goes on from that place on the sink the server moved it to
            player.send("resume")
            let status = await player.waitForExit(timeout: 30)
            #expect(await speakers.waitForMore(seconds: 0.3), "the recorder stopped")
            let recorded = try speakers.finish()
            #expect(status == 0, "stderr: \(player.stderr)")
            let track = SecondTrack(recorded.samples, channels: 2, rate: recorded.rate)
            let kept = try #require(PlayerProcess.place(in: movedLine), "\(movedLine)")
            let keptSecond = Int(kept.frame / 44100)
            #expect(keptSecond >= 3, "\(movedLine)")
            // nothing reached the other speakers before the move
            #expect(track.seconds.first.map { $0 >= keptSecond - 1 } == true, "\(track)")
            #expect(track.seconds.first == keptSecond || track.seconds.first == keptSecond + 1, "\(track) kept \(kept)")
            #expect(track.seconds.last == 7, "\(track)")
        }
    }
}

/// Waits until `status` reports a frame of the first item at or past `frame`.
func waitForPlace(_ player: PlayerProcess, atLeast frame: Int64, timeout: Double = 20) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + .seconds(timeout)
    while clock.now < deadline {
        if let place = await player.status(), place.frame >= frame { return true }
        try? await Task.sleep(for: .milliseconds(50))
    }
    // A last look: a task kept from the pool past the deadline (a loaded machine, other suites
    // blocking both threads) must not fail a player that got there long ago.
    if let place = await player.status(timeout: 20), place.frame >= frame { return true }
    return false
}
