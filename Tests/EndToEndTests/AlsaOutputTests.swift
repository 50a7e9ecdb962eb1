import Foundation
import TestSupport
import Testing

extension OutputTests {
    /// The alsa plugin through the player: a device that goes away and comes back, pause, a
    /// device that does not exist. That the device receives exactly the audio put in is the sink
    /// contract's (Tests/PluginHostTests/SinkContractTests.swift, on an ALSA `file` PCM).
    @Suite struct AlsaOutputTests {
        @Test func aDeviceThatStopsWorkingPausesAndItsReturnResumesFromThere() async throws {
            // Given an ALSA device that is a PulseAudio stream (alsa-plugins' `pulse` PCM): when
            // the server goes, the device stops working, as an unplugged USB DAC does
            let server = try PulseServer()
            let asoundrc = server.directory.appendingPathComponent("asoundrc")
            try "pcm.viapulse { type pulse }\n".write(to: asoundrc, atomically: true, encoding: .utf8)
            var environment = server.environment
            environment["ALSA_CONFIG_PATH"] = "/usr/share/alsa/alsa.conf:\(asoundrc.path)"
            // 20 s: long enough that the book cannot end before the server is stopped, however
            // long this test's task waits for a thread (in a full run, seconds)
            let mp3 = try Fixtures.mp3(seconds: 20, vbr: true)
            let player = try PlayerProcess(["--output", "alsa:viapulse", mp3.path], environment: environment,
                                           home: try BuildProducts.temporaryDirectory("alsa-lost"))
            #expect(await waitForPlace(player, atLeast: 3 * 44100))
            // When the device stops working mid-play: the place just before, and how long it took
            // from asking for it until the server was gone (measured: under load this test's
            // task can wait seconds for a thread, and the book plays on meanwhile)
            let clock = ContinuousClock()
            let asked = clock.now
            let reached = try #require(await player.status()).frame
            server.stop()
            let window = (clock.now - asked).seconds
            // Then the player says so with the place kept: where it was when the server went
            #expect(await player.waitForStderr("output lost"), "stderr: \(player.stderr)")
            let lostLine = player.stderr.split(separator: "\n").first { $0.contains("output lost") }.map(String.init) ?? ""
            let kept = try #require(PlayerProcess.place(in: lostLine), "\(lostLine)")
            #expect(kept.frame >= reached - 44100 / 2 && Double(kept.frame) < Double(reached) + (window + 1) * 44100,
                    "\(lostLine); at \(reached) when asked, the server gone \(window) s later")
            // When it works again, playback resumes from there and runs to the end
            try server.start()
            let after = try server.record()
            #expect(await player.waitForStderr("output back"), "stderr: \(player.stderr)")
            let status = await player.waitForExit(timeout: 60)
            #expect(await after.waitForMore(seconds: 0.3), "the recorder stopped")
            let recorded = try after.finish()
            #expect(status == 0, "stderr: \(player.stderr)")
            let track = SecondTrack(recorded.samples, channels: 2, rate: recorded.rate)
            let keptSecond = Int(kept.frame / 44100)
            let first = try #require(track.seconds.first, "\(track)")
            #expect(first == keptSecond || first == keptSecond + 1, "kept \(kept), heard \(track)")
            // In order to the end; a second cut by a silence and heard on after it (an underrun of
            // the device on a loaded machine) is one second, nothing skipped or repeated
            #expect(OutputChecks.distinct(track.seconds) == Array(first..<20), "\(track)")
        }

        @Test func pauseIsSilenceThenTheSameSecondGoesOn() async throws {
            // Given abplayer playing an 8 s time-coded MP3 to a real-time ALSA device (a PCM over
            // PulseAudio, recorded from the server's null sink)
            let server = try PulseServer()
            let asoundrc = server.directory.appendingPathComponent("asoundrc")
            try "pcm.viapulse { type pulse }\n".write(to: asoundrc, atomically: true, encoding: .utf8)
            var environment = server.environment
            environment["ALSA_CONFIG_PATH"] = "/usr/share/alsa/alsa.conf:\(asoundrc.path)"
            let mp3 = try Fixtures.mp3(seconds: 8, vbr: true)
            let recording = try server.record()
            #expect(await recording.waitForMore(seconds: 0.1), "the recorder does not record")
            let player = try PlayerProcess(["--output", "alsa:viapulse", mp3.path], environment: environment,
                                           home: try BuildProducts.temporaryDirectory("alsa-pause"))
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
            #expect(await recording.waitForMore(seconds: 0.3), "the recorder stopped")
            let recorded = try recording.finish()
            // Then there is one silence as long as the pause, and the same second goes on after it
            #expect(status == 0, "stderr: \(player.stderr)")
            let track = SecondTrack(recorded.samples, channels: 2, rate: recorded.rate)
            OutputChecks.expectPauseThenContinuation(track, pauseLength: pauseLength, seconds: 0..<8)
        }

        @Test func aDeviceThatDoesNotExistIsOneClearLine() async throws {
            // Given no such ALSA device
            let pcm = try AlsaFilePCM()
            let mp3 = try Fixtures.mp3(seconds: 5, vbr: true)
            // When abplayer is asked to play to it
            let player = try PlayerProcess(["--output", "alsa:nosuchdevice", mp3.path], environment: pcm.environment,
                                           home: try BuildProducts.temporaryDirectory("alsa-missing"))
            let status = await player.waitForExit(timeout: 30)
            // Then it fails with one line naming the output and the device, and does not hang
            #expect(status == 1)
            let lines = player.stderr.split(separator: "\n").filter { $0.hasPrefix("abplayer:") }
            #expect(lines.count == 1 && lines[0].contains("alsa") && lines[0].contains("nosuchdevice"), "\(player.stderr)")
        }
    }
}
