import Foundation
import TestSupport
import Testing

extension OutputTests {
    /// `abplayer play`: choosing an output by itself, switching while playing, stopping, bad input.
    @Suite struct PlayCommandTests {
        @Test func withoutAChoiceItPicksTheRunningJackServer() async throws {
            // Given only a JACK server (PulseAudio unreachable)
            let server = try JackServer()
            let mp3 = try Fixtures.mp3(seconds: 5, vbr: true)
            // When abplayer plays without --output
            let player = try PlayerProcess([mp3.path], environment: server.environment,
                                           home: try BuildProducts.temporaryDirectory("autopick-jack"))
            // Then it plays through JACK, without a warning
            #expect(await server.waitForPort("abplayer:out_1"), "stderr: \(player.stderr)")
            let status = await player.statusJSON()
            #expect(status?.output == "jack", "stdout: \(player.stdout)")
            // and its place counts items from 1, as every other place the listener reads does
            #expect(status?.itemNumber == 1, "stdout: \(player.stdout)")
            player.send("stop")
            #expect(await player.waitForExit(timeout: 20) == 0)
            #expect(!player.stderr.contains("no audio output"))
        }

        @Test func withNoServerItFallsBackToNullWithOneWarning() async throws {
            // Given no PulseAudio, no JACK, and an ALSA configuration whose default device does not open
            let directory = try BuildProducts.temporaryDirectory("autopick-null")
            let asoundrc = directory.appendingPathComponent("asoundrc")
            try "pcm.!default { type hw card 99 }\n".write(to: asoundrc, atomically: true, encoding: .utf8)
            let mp3 = try Fixtures.mp3(seconds: 5, vbr: true)
            // When abplayer plays two seconds of it without --output
            let player = try PlayerProcess(["--to", "2", mp3.path],
                                           environment: ["ALSA_CONFIG_PATH": "/usr/share/alsa/alsa.conf:\(asoundrc.path)"],
                                           home: directory)
            let status = await player.waitForExit(timeout: 20)
            // Then one line says what was tried and how to pick an output, and it plays to null
            #expect(status == 0, "stderr: \(player.stderr)")
            let warnings = player.stderr.split(separator: "\n").filter { $0.contains("no audio output answered") }
            #expect(warnings.count == 1, "\(player.stderr)")
            #expect(warnings.first.map { $0.contains("pulse") && $0.contains("jack") && $0.contains("alsa") && $0.contains("--output") } == true)
        }

        @Test func switchingPulseThenJackThenAlsaKeepsThePlace() async throws {
            // Given PulseAudio, JACK and an ALSA file PCM, and a 12 s time-coded MP3 playing to PulseAudio
            let pulse = try PulseServer()
            let jack = try JackServer()
            let alsa = try AlsaFilePCM()
            let environment = pulse.environment.merging(jack.environment) { a, _ in a }.merging(alsa.environment) { a, _ in a }
            let mp3 = try Fixtures.mp3(seconds: 12, vbr: true)
            let onPulse = try pulse.record()
            #expect(await onPulse.waitForMore(seconds: 0.1), "the recorder does not record")
            let player = try PlayerProcess(["--output", "pulse", mp3.path], environment: environment,
                                           home: try BuildProducts.temporaryDirectory("switch"))
            // When it is switched to JACK after 3 s, and to ALSA after 7 s
            #expect(await waitForPlace(player, atLeast: 3 * 44100))
            player.send("output jack")
            #expect(await jack.waitForPort("abplayer:out_1"), "stderr: \(player.stderr)")
            let onJack = try jack.record(ports: ["abplayer:out_1", "abplayer:out_2"], seconds: 9)
            #expect(await waitForPlace(player, atLeast: 7 * 44100))
            player.send("output alsa:\(alsa.device)")
            let status = await player.waitForExit(timeout: 30)
            // Then each output carries on from the second the previous one stopped at
            #expect(status == 0, "stderr: \(player.stderr)")
            let pulseTrack = OutputChecks.withoutTrailingBlip(SecondTrack(try onPulse.finish().samples, channels: 2, rate: 48000))
            let jackRecorded = try await onJack.waitAndFinish()
            let jackTrack = SecondTrack(jackRecorded.samples, channels: jackRecorded.channels, rate: jackRecorded.rate)
            let alsaTrack = SecondTrack(try alsa.captured(rate: 44100, channels: 2), channels: 2, rate: 44100)
            // (with what the player said: an output lost and regained plays again from the second heard)
            let tracks = "pulse: \(pulseTrack)\njack: \(jackTrack)\nalsa: \(alsaTrack)\nstderr: \(player.stderr)"
            let pulseLast = try #require(pulseTrack.seconds.last, "\(tracks)")
            let jackFirst = try #require(jackTrack.seconds.first, "\(tracks)")
            let jackLast = try #require(jackTrack.seconds.last, "\(tracks)")
            let alsaFirst = try #require(alsaTrack.seconds.first, "\(tracks)")
            // (a second cut by a moment of silence, the output starved on a loaded machine, is
            // one second heard: "2@2.70+0.30 _@3.00+0.05 2@3.05+0.80" beside stress-ng)
            #expect(OutputChecks.distinct(pulseTrack.seconds) == Array(0...pulseLast), "\(tracks)")
            #expect(jackFirst == pulseLast || jackFirst == pulseLast + 1, "\(tracks)")
            #expect(OutputChecks.distinct(jackTrack.seconds) == Array(jackFirst...jackLast), "\(tracks)")
            #expect(alsaFirst == jackLast || alsaFirst == jackLast + 1, "\(tracks)")
            #expect(OutputChecks.distinct(alsaTrack.seconds) == Array(alsaFirst..<12), "\(tracks)")
            // and the second heard across the JACK -> ALSA switch (both recorded from its first
            // frame) lost or repeated less than the allowed 250 ms
            if alsaFirst == jackLast {
                let across = jackTrack.duration(of: jackLast) + alsaTrack.duration(of: alsaFirst)
                #expect(abs(across - 1) < 0.25, "\(tracks)")
            }
        }

        @Test func interruptStopsCleanly() async throws {
            // Given abplayer playing to PulseAudio
            let server = try PulseServer()
            let mp3 = try Fixtures.mp3(seconds: 8, vbr: true)
            let player = try PlayerProcess(["--output", "pulse", mp3.path], environment: server.environment,
                                           home: try BuildProducts.temporaryDirectory("interrupt"))
            #expect(await waitForPlace(player, atLeast: 44100))
            // When it gets SIGINT (Ctrl-C)
            player.signal(SIGINT)
            // Then it exits at once with the conventional status, and its stream is gone from the server
            #expect(await player.waitForExit(timeout: 5) == 130, "stderr: \(player.stderr)")
            let inputs = try Command.run("pactl", ["list", "short", "sink-inputs"], environment: server.environment, timeout: 10)
            #expect(String(decoding: inputs.stdout, as: UTF8.self).isEmpty)
        }

        @Test func aBadFileIsOneLineAndTheNextStillPlays() async throws {
            // Given a text file and a time-coded MP3, played in that order to the ALSA file PCM
            let pcm = try AlsaFilePCM()
            let text = try Fixtures.textFile(named: "notes.mp3")
            let mp3 = try Fixtures.mp3(seconds: 5, vbr: true)
            let player = try PlayerProcess(["--output", "alsa:\(pcm.device)", text.path, mp3.path], environment: pcm.environment,
                                           home: try BuildProducts.temporaryDirectory("play-bad"))
            let status = await player.waitForExit(timeout: 30)
            // Then one line names the bad file, the MP3 still plays whole, and the exit status says so
            #expect(status == 1)
            let lines = player.stderr.split(separator: "\n").filter { $0.contains(text.path) }
            #expect(lines.count == 1, "\(player.stderr)")
            #expect(try pcm.captured(rate: 44100, channels: 2).count == 5 * 44100 * 2)
        }

        @Test func stoppingFilesOutsideTheLibraryClaimsNoSavedPlace() async throws {
            // Given abplayer playing a file given to it (10 minutes to the paced null output, so
            // it still plays however long this test waits)
            let mp3 = try Fixtures.mp3(seconds: 600, rate: 8000, channels: 1, vbr: false)
            let home = try BuildProducts.temporaryDirectory("play-stop")
            let player = try PlayerProcess(["--output", "null", mp3.path], environment: [:], home: home)
            #expect(await waitForPlace(player, atLeast: 1, timeout: 120), "stdout: \(player.stdout) stderr: \(player.stderr)")
            // When `stop` is typed
            player.send("stop")
            // Then it ends saying it stopped, and neither that the place was saved (nothing is,
            // for files outside the library) nor that 'play' starts it again (it has ended)
            #expect(await player.waitForExit(timeout: 30) == 0, "stderr: \(player.stderr)")
            let said = player.stdout + player.stderr
            #expect(said.contains("stopped \(mp3.deletingPathExtension().lastPathComponent)"), "\(said)")
            #expect(!said.contains("position saved") && !said.contains("starts it again"), "\(said)")

            // When another run's book (the file) is deleted while it plays
            let deleted = try PlayerProcess(["--output", "null", mp3.path], environment: [:], home: home)
            #expect(await waitForPlace(deleted, atLeast: 1, timeout: 120), "stdout: \(deleted.stdout) stderr: \(deleted.stderr)")
            deleted.send("book rm #1")
            // Then it stops for it, again claiming no saved place
            #expect(await deleted.waitForExit(timeout: 30) == 0, "stderr: \(deleted.stderr)")
            #expect(deleted.stderr.contains("stopped") && !deleted.stderr.contains("position saved"), "\(deleted.stderr)")
        }
    }
}
