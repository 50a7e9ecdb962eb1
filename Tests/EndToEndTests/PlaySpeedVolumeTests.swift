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

    @Test func playSkipsTheIntroAndOutroOfEveryFile() throws {
        // Given two 6 s time-coded MP3s (a pitch for each second)
        let abplayer = try AbplayerProcess("play-intro-outro")
        let first = abplayer.home.appending(path: "01.mp3"), second = abplayer.home.appending(path: "02.mp3")
        try FileManager.default.copyItem(at: try Fixtures.mp3(seconds: 6, vbr: false), to: first)
        try FileManager.default.copyItem(at: try Fixtures.mp3(seconds: 6, vbr: false), to: second)
        let output = abplayer.home.appending(path: "out.wav")

        // When they play with the first 2 s and the last 1 s of each left out
        let result = try abplayer.run(["play", "--skip-intro", "2s", "--skip-outro", "1", "--output", "wav:\(output.path)", first.path, second.path],
                                      timeout: 60)

        // Then what is heard is seconds 2 to 4 of each, in order: 6 s
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let wav = try WavFile.read(output)
        let seconds = Double(wav.frameCount) / Double(wav.rate)
        #expect(abs(seconds - 6) < 0.1, "lasted \(seconds) s")
        let track = SecondTrack(wav.samples, channels: wav.channels, rate: wav.rate)
        #expect(track.seconds == [2, 3, 4, 2, 3, 4], "\(track)")

        // and a time that is not one is refused in one line naming the option
        let refused = try abplayer.run(["play", "--skip-intro", "soon", "--output", "null", first.path], timeout: 30)
        #expect(refused.status == 64 && refused.stderr.hasPrefix("abplayer: --skip-intro: 'soon' "), "\(refused.stderr)")
    }

    @Test func aSpeedOrVolumeOutOfRangeIsOneLineWithTheRange() throws {
        let mp3 = try Fixtures.mp3(seconds: 5, vbr: true)
        let abplayer = try AbplayerProcess("play-speed-bad")
        let ranges = ["--speed": "use a speed from 0.5 to 4 (1.25 or 1.25x; 1 is normal)",
                      "--volume": "use a volume from 0 to 150 percent (80 or 80%)"]
        for arguments in [["--speed", "8"], ["--speed", "0.2"], ["--volume", "200"], ["--volume=-1"]] {
            let option = String(arguments[0].prefix { $0 != "=" })
            let value = arguments.count == 2 ? arguments[1] : String(arguments[0].drop { $0 != "=" }.dropFirst())
            let result = try abplayer.run(["play", "--output", "null"] + arguments + [mp3.path], timeout: 30)
            // Refused (a usage error), in one line naming the option, the value and the range
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr == "abplayer: \(option): '\(value)' is out of range: \(ranges[option]!)\n", "\(arguments)")
        }
    }

    /// All commands are on standard input from the start and read in order: no waiting on timers
    /// (and no write to a pipe whose reader may have gone).
    @Test func speedAndVolumeCommandsWhilePlaying() throws {
        // Given a 20 s MP3 playing in real time to the null output
        let mp3 = try Fixtures.mp3(seconds: 20, vbr: true)
        let abplayer = try AbplayerProcess("play-speed-commands")
        // When it is told a bad speed and a bad volume, then speed 1.5 and volume 80%, asked for
        // its status, and stopped
        let commands = "speed fast\nvolume 151\nspeed 1.5\nvolume 80%\nstatus --json\nstop\n"
        let result = try Command.run(BuildProducts.abplayer.path, ["play", "--output", "null", mp3.path],
                                     stdin: Data(commands.utf8), environment: abplayer.environment, timeout: 60)
        // Then each bad value is one line saying what is allowed, status shows the new values
        // while playing, and it exits cleanly
        #expect(result.status == 0, "stderr: \(result.stderr)")
        // (the REPL's commands and its words: `play` takes every one)
        #expect(result.stderr.contains("speed: 'fast' is not a speed: use a speed from 0.5 to 4"), "\(result.stderr)")
        #expect(result.stderr.contains("volume: '151' is out of range: use a volume from 0 to 150 percent"), "\(result.stderr)")
        let line = try #require(result.stdoutString.split(separator: "\n").first { $0.hasPrefix("{") }, "stdout: \(result.stdoutString)")
        let status = try JSONDecoder().decode(SpeedVolumeStatus.self, from: Data(line.utf8))
        #expect(status.speed == 1.5 && status.volume == 80 && status.state == "playing", "\(line)")
    }
}

/// The fields of `status --json` the speed and volume test reads.
private struct SpeedVolumeStatus: Decodable {
    let speed: Double
    let volume: Double
    let state: String
}
