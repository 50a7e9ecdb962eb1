import Foundation
import TestSupport
import Testing

/// `abplayer play --speed X --volume P`, and bad values for them.
@Suite struct PlaySpeedVolumeTests {
    @Test func playAtDoubleSpeedAndHalfVolumeToAWavFile() throws {
        // Given a 10 s time-coded MP3 (peak 0.5)
        let mp3 = try Fixtures.mp3(seconds: 10, vbr: true)
        let abplayer = try AbplayerProcess("play-speed")
        let output = abplayer.home.appendingPathComponent("out.wav")
        // When it plays at speed 2 and volume 50 % to a WAV file
        let result = try abplayer.run(["play", "--speed", "2", "--volume", "50", "--output", "wav:\(output.path)", mp3.path],
                                      timeout: 60)
        // Then it lasts 5 s, keeps the pitch of each source second in order, at half the level
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let wav = try WavFile.read(output)
        let seconds = Double(wav.frameCount) / Double(wav.rate)
        #expect(abs(seconds - 5) < 0.1, "lasted \(seconds) s")
        let track = SecondTrack(wav.samples, channels: wav.channels, rate: wav.rate)
        #expect(track.seconds == Array(0..<10), "\(track)")
        let middle = AudioAnalysis.rms(wav.samples, channels: wav.channels, from: wav.rate / 10, count: wav.rate * 4)
        let expected = TimeCodedSignal.amplitude / 2.squareRoot() / 2
        #expect(abs(20 * log10(middle / expected)) < 0.5, "rms \(middle), expected \(expected)")
    }

    @Test func aSpeedOrVolumeOutOfRangeIsOneLine() throws {
        let mp3 = try Fixtures.mp3(seconds: 5, vbr: true)
        let abplayer = try AbplayerProcess("play-speed-bad")
        for arguments in [["--speed", "8"], ["--speed", "0.2"], ["--volume", "200"], ["--volume", "-1"]] {
            let result = try abplayer.run(["play", "--output", "null"] + arguments + [mp3.path], timeout: 30)
            #expect(result.status != 0, "\(arguments)")
            let errorLines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("Error:") }
            #expect(errorLines.count == 1 && errorLines[0].contains(arguments[0]), "\(arguments): \(result.stderr)")
        }
    }

    @Test func speedAndVolumeCommandsWhilePlaying() async throws {
        // Given a 20 s MP3 playing in real time to the null output
        let mp3 = try Fixtures.mp3(seconds: 20, vbr: true)
        let player = try PlayerProcess(["--output", "null", mp3.path], environment: [:],
                                       home: try BuildProducts.temporaryDirectory("play-speed-commands"))
        // When it is told a bad speed, then speed 1.5 and volume 80%
        player.send("speed fast")
        #expect(await player.waitForStderr("'speed fast': the speed must be a number from 0.5 to 4"), "\(player.stderr)")
        player.send("volume 151")
        #expect(await player.waitForStderr("'volume 151': the volume must be a number from 0 to 150"), "\(player.stderr)")
        player.send("speed 1.5")
        player.send("volume 80%")
        // Then status shows them, and it still plays on
        player.send("status")
        #expect(await player.waitForStdout("speed=1.5 volume=80.0"), "stdout: \(player.stdout)")
        #expect(player.stdout.contains("status playing"), "stdout: \(player.stdout)")
        player.send("stop")
        #expect(await player.waitForExit(timeout: 20) == 0, "stderr: \(player.stderr)")
    }
}
