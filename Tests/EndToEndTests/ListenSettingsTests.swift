import Foundation
import TestSupport
import Testing

extension ListenTests {
    /// Synchronous: its waits block this thread (Thread.sleep) instead of yielding it, so other
    /// tests holding the cooperative pool cannot make it miss the moment to stop.
    @Test func listenPlaysAtTheBooksSpeedAndVolume() throws {
        // Given a book whose settings say speed 2 and volume 50 % (and loudness off: the level
        // heard is the volume's alone, not evened out)
        let (abplayer, library) = try Self.libraryWithBook("listen-settings")
        _ = try abplayer.run(["book", "settings", "--library", library, "Listen Book", "--speed", "2", "--volume", "50",
                              "--loudness", "off"]).requireSuccess()
        let output = abplayer.home.appending(path: "heard.wav")
        // When it is listened to (in real time, into a WAV file) until the file holds 2 s, then
        // stopped
        let clock = ContinuousClock()
        let listening = try ListeningProcess(abplayer, arguments: ["listen", "--output", "wav:\(output.path)", "--library", library, "Listen Book"])
        var line: Substring?
        let deadline = clock.now + .seconds(30)
        while line == nil && !listening.process.hasEnded && clock.now < deadline {
            line = listening.errorOutput.split(separator: "\n").first { $0.contains("playing") && $0.hasSuffix(" s") }
            if line == nil { Thread.sleep(forTimeInterval: 0.005) }
        }
        let playing = try #require(line, "stderr: \(listening.errorOutput)")
        let startSeconds = try #require(Self.startSeconds(String(playing)))
        #expect(waitUntil(within: 60, every: 0.25) { ((try? WavFile.read(output)).map { Double($0.frameCount) / Double($0.rate) } ?? 0) >= 2 },
                "stderr: \(listening.errorOutput)")
        listening.signal(SIGTERM)
        listening.process.waitForEnd(timeout: 30)
        listening.process.kill()
        #expect(listening.process.endStatus == 0, "stderr: \(listening.errorOutput)")
        // Then what was heard is the source's seconds in order, each lasting half a second (its
        // own audio says the speed, whatever the machine's load did to the wall clock)
        let wav = try WavFile.read(output)
        let heard = Double(wav.frameCount) / Double(wav.rate)
        let track = SecondTrack(wav.samples, channels: wav.channels, rate: wav.rate)
        let seconds = track.seconds
        #expect(seconds.count >= 4 && seconds == Array(seconds[0]..<seconds[0] + seconds.count), "\(track)")
        // (the first and last are cut by the start and the stop; a window across a boundary
        // matches neither second, so a whole one reads a little short of 0.5 s)
        for second in seconds.dropFirst().dropLast() {
            #expect((0.38...0.55).contains(track.duration(of: second)), "second \(second): \(track)")
        }
        // and the saved position moved twice as far as what was heard, to where it stopped
        let saved = try #require(try Self.savedSeconds(abplayer, library: library))
        let advanced = saved - startSeconds
        #expect(abs(advanced - 2 * heard) < 0.5, "advanced \(advanced) s for \(heard) s heard")
        // pitch kept, at half the level
        let level = AudioAnalysis.rms(wav.samples, channels: wav.channels, from: wav.rate / 10, count: wav.rate)
        let expected = TimeCodedSignal.amplitude / 2.squareRoot() / 2
        #expect(abs(20 * log10(level / expected)) < 0.5, "rms \(level), expected \(expected)")
    }
}
