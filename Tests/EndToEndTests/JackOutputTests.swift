import Foundation
import TestSupport
import Testing

extension OutputTests {
    /// The jack plugin against a private `jackd -d dummy` at 48 kHz, recorded with jack_rec on our
    /// ports: 44.1 kHz sources go through the core's resampler (libsoxr).
    @Suite struct JackOutputTests {
        @Test(arguments: [2, 1])
        func playsResampledToTheServerRateOnEveryPort(channels: Int) async throws {
            // Given a private JACK server at 48 kHz and a 6 s 44.1 kHz time-coded MP3 (mono or stereo)
            let server = try JackServer()
            let mp3 = try Fixtures.mp3(seconds: 6, channels: channels, vbr: true)
            // When abplayer plays it to JACK, and its two ports are recorded
            let player = try PlayerProcess(["--output", "jack", mp3.path], environment: server.environment,
                                           home: try BuildProducts.temporaryDirectory("jack-play"))
            #expect(await server.waitForPort("abplayer:out_2"), "stderr: \(player.stderr)")
            let recording = try server.record(ports: ["abplayer:out_1", "abplayer:out_2"], seconds: 8)
            let status = await player.waitForExit(timeout: 30)
            let recorded = try await recording.waitAndFinish()
            // Then both ports carry every second from where the recording caught up to the end,
            // each a second long at its exact pitch: the rate was converted, not just relabelled
            #expect(status == 0, "stderr: \(player.stderr)")
            #expect(recorded.rate == 48000)
            for port in 0..<2 {
                let track = SecondTrack(recorded.samples, channels: recorded.channels, rate: recorded.rate, channel: port)
                let first = try #require(track.seconds.first, "port \(port): \(track)")
                #expect(first <= 1, "port \(port): \(track)")
                #expect(track.seconds == Array(first..<6), "port \(port): \(track)")
                OutputChecks.expectWholeSeconds(recorded, track: track, seconds: (first + 1)...4, channel: port)
            }
        }

        @Test func pauseIsSilenceThenTheSameSecondGoesOn() async throws {
            // Given abplayer playing an 8 s time-coded MP3 to JACK, its ports recorded
            let server = try JackServer()
            let mp3 = try Fixtures.mp3(seconds: 8, vbr: true)
            let player = try PlayerProcess(["--output", "jack", mp3.path], environment: server.environment,
                                           home: try BuildProducts.temporaryDirectory("jack-pause"))
            #expect(await server.waitForPort("abplayer:out_2"), "stderr: \(player.stderr)")
            let recording = try server.record(ports: ["abplayer:out_1", "abplayer:out_2"], seconds: 12)
            #expect(await waitForPlace(player, atLeast: 3 * 44100))
            // When it is paused until the recording holds two seconds of the pause (its length as
            // measured), and resumed
            player.send("pause")
            let clock = ContinuousClock()
            let pauseSent = clock.now
            #expect(await player.pausedPlace() != nil, "stdout: \(player.stdout)")
            let pauseSeen = clock.now
            #expect(await recording.waitForMore(seconds: 2), "the recorder stopped")
            let resumeSent = clock.now
            player.send("resume")
            #expect(await player.playingPlace() != nil, "stdout: \(player.stdout)")
            let pauseLength = (resumeSent - pauseSeen) / .seconds(1)...(clock.now - pauseSent) / .seconds(1)
            let status = await player.waitForExit(timeout: 30)
            let recorded = try await recording.waitAndFinish()
            // Then there is one silence as long as the pause, and the same second goes on after it
            #expect(status == 0, "stderr: \(player.stderr)")
            let track = SecondTrack(recorded.samples, channels: recorded.channels, rate: recorded.rate)
            OutputChecks.expectPauseThenContinuation(track, pauseLength: pauseLength, seconds: 0..<8)
        }

        @Test func losingTheServerPausesAndItsReturnResumesFromThere() async throws {
            // Given abplayer playing an 8 s time-coded MP3 to a private JACK server
            let server = try JackServer()
            let mp3 = try Fixtures.mp3(seconds: 8, vbr: true)
            let player = try PlayerProcess(["--output", "jack", mp3.path], environment: server.environment,
                                           home: try BuildProducts.temporaryDirectory("jack-lost"))
            #expect(await waitForPlace(player, atLeast: 3 * 44100))
            // When the server dies mid-play: the place just before, and how long it took from
            // asking for it until the server was gone (measured, as in the ALSA test)
            let clock = ContinuousClock()
            let asked = clock.now
            let reached = try #require(await player.status()).frame
            server.stop()
            let window = (clock.now - asked).seconds
            // Then the player says so with the place kept
            #expect(await player.waitForStderr("output lost"), "stderr: \(player.stderr)")
            let lostLine = player.stderr.split(separator: "\n").first { $0.contains("output lost") }.map(String.init) ?? ""
            let kept = try #require(PlayerProcess.place(in: lostLine), "\(lostLine)")
            #expect(kept.frame >= reached - 44100 / 2 && Double(kept.frame) < Double(reached) + (window + 1) * 44100,
                    "\(lostLine); at \(reached) when asked, the server gone \(window) s later")
            // When the server comes back, playback resumes from there: said with the place
            try server.start()
            #expect(await player.waitForStderr("output back"), "stderr: \(player.stderr)")
            let backLine = player.stderr.split(separator: "\n").first { $0.contains("output back") }.map(String.init) ?? ""
            let resumed = try #require(PlayerProcess.place(in: backLine), "\(backLine)")
            #expect(resumed.item == kept.item && abs(resumed.frame - kept.frame) < 44100, "\(lostLine); \(backLine)")
            // and heard (recorded once our ports exist)
            #expect(await server.waitForPort("abplayer:out_1"))
            let recording = try server.record(ports: ["abplayer:out_1", "abplayer:out_2"], seconds: 7)
            let status = await player.waitForExit(timeout: 30)
            let recorded = try await recording.waitAndFinish()
            #expect(status == 0, "stderr: \(player.stderr)")
            let track = SecondTrack(recorded.samples, channels: recorded.channels, rate: recorded.rate)
            let keptSecond = Int(kept.frame / 44100)
            let first = try #require(track.seconds.first, "\(track)")
            // (the recorder attaches after the player has resumed: beside stress-ng, 2.6 s later,
            // "kept 3.2 s, heard 5@0.00+0.15 6 7"; the place resumed from is the line's, above)
            #expect(first >= keptSecond && first <= keptSecond + 3, "kept \(kept), heard \(track)")
            // in order to the end (a second cut by a silence, the server starved on a loaded
            // machine, is one second: nothing skipped or repeated)
            #expect(OutputChecks.distinct(track.seconds) == Array(first..<8), "\(track)")
        }
    }
}
