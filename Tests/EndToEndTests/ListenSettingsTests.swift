import Foundation
import TestSupport
import Testing

extension ListenTests {
    @Test func listenPlaysAtTheBooksSpeedAndVolume() async throws {
        // Given a book whose settings say speed 2 and volume 0.5
        let (abplayer, library) = try Self.libraryWithBook("listen-settings")
        _ = try abplayer.run(["book", "settings", "--library", library, "Listen Book", "--speed", "2", "--volume", "0.5"]).requireSuccess()
        let output = abplayer.home.appending(path: "heard.wav")
        // When it is listened to (in real time, into a WAV file) for about 2 s, then stopped
        let clock = ContinuousClock()
        let listening = try ListeningProcess(abplayer, arguments: ["listen", "--output", "wav:\(output.path)", "--library", library, "Listen Book"])
        let playing = try #require(await listening.waitForLine(containing: "playing"), "stderr: \(listening.errorOutput)")
        let startSeconds = try #require(Self.startSeconds(playing.line))
        try await Task.sleep(for: .milliseconds(2000))
        let wall = (clock.now - playing.arrived).secondsValue
        listening.signal(SIGTERM)
        #expect(await listening.waitForExit() == 0, "stderr: \(listening.errorOutput)")
        // Then the saved position moved twice as fast as the wall clock (less the output's start)
        let saved = try #require(try Self.savedSeconds(abplayer, library: library))
        let advanced = saved - startSeconds
        #expect(advanced <= 2 * wall + 0.2 && advanced > 2 * wall - 1.2, "advanced \(advanced) s in \(wall) s")
        // and what was heard is the source's seconds in order, pitch kept, at half the level
        let wav = try WavFile.read(output)
        let track = SecondTrack(wav.samples, channels: wav.channels, rate: wav.rate)
        let seconds = track.seconds
        #expect(seconds.count >= 2 && seconds == Array(seconds[0]..<seconds[0] + seconds.count), "\(track)")
        let level = AudioAnalysis.rms(wav.samples, channels: wav.channels, from: wav.rate / 10, count: wav.rate)
        let expected = TimeCodedSignal.amplitude / 2.squareRoot() / 2
        #expect(abs(20 * log10(level / expected)) < 0.5, "rms \(level), expected \(expected)")
    }
}
