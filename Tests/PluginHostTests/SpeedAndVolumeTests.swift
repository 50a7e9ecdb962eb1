import Foundation
import PlayerCore
import PluginHost
import TestSupport
import Testing

/// Speed (libsonic) and volume in the engine's DSP chain, driven with the real mpg123 decoder and
/// the wav and null outputs, checked on the audio that comes out and on the reported positions.
@Suite struct SpeedAndVolumeTests {
    static let rate = 44100

    /// Plays `mp3` to a WAV file as fast as it decodes, after `configure`, and reads it back.
    static func render(_ mp3: URL, name: String, configure: (PlaybackEngine) -> Void) async throws -> WavFile {
        let registry = PlaybackEngineTests.registry()
        let output = try BuildProducts.temporaryDirectory("engine-\(name)").appendingPathComponent("out.wav")
        let engine = PlaybackEngine(
            decoders: registry, sinks: try registry.sinkOpener(pluginID: "wav", options: ["path": output.path]))
        configure(engine)
        engine.load([mp3.path])
        let events = await TestSupport.events(of: engine, within: 60)
        engine.shutdown()
        #expect(events.contains { if case .ended = $0 { true } else { false } }, "\(name) did not end")
        return try WavFile.read(output)
    }

    /// The dominant frequency of the 0.2 s centred at `seconds` into `wav` (left channel).
    static func frequency(in wav: WavFile, at seconds: Double) -> Double {
        let length = wav.rate / 5
        let from = Int(seconds * Double(wav.rate)) - length / 2
        return AudioAnalysis.dominantFrequency(wav.samples, channels: wav.channels, rate: wav.rate, from: from, count: length)
    }

    @Test func doubleSpeedHalvesTheLengthAndKeepsPitchAndOrder() async throws {
        // Given a 20 s time-coded MP3 (second k is a sine at 300 + 25k Hz)
        let mp3 = try Fixtures.mp3(seconds: 20, vbr: false)
        // When it plays at speed 2
        let wav = try await Self.render(mp3, name: "speed2") { $0.setSpeed(2) }
        // Then the output lasts 10 s (within 2 %)
        let seconds = Double(wav.frameCount) / Double(Self.rate)
        #expect(abs(seconds - 10) < 0.2, "lasted \(seconds) s")
        // and each half-second of it has the frequency of the source second it came from (pitch
        // kept: a plain speed-up would double it), in order
        for half in 0..<20 {
            let expected = TimeCodedSignal.frequency(ofSecond: half)
            let measured = Self.frequency(in: wav, at: Double(half) * 0.5 + 0.25)
            #expect(abs(measured - expected) / expected < 0.02, "half-second \(half): \(measured) Hz, source \(expected) Hz")
        }
    }

    @Test func halfSpeedDoublesTheLengthAndKeepsPitch() async throws {
        // Given a 5 s time-coded MP3
        let mp3 = try Fixtures.mp3(seconds: 5, vbr: false)
        // When it plays at speed 0.5
        let wav = try await Self.render(mp3, name: "speed05") { $0.setSpeed(0.5) }
        // Then it lasts 10 s, and each pair of output seconds has the source second's pitch
        let seconds = Double(wav.frameCount) / Double(Self.rate)
        #expect(abs(seconds - 10) < 0.2, "lasted \(seconds) s")
        for second in 0..<10 {
            let expected = TimeCodedSignal.frequency(ofSecond: second / 2)
            let measured = Self.frequency(in: wav, at: Double(second) + 0.5)
            #expect(abs(measured - expected) / expected < 0.02, "second \(second): \(measured) Hz, source \(expected) Hz")
        }
    }

    @Test func speedOneIsBitExact() async throws {
        // Given a 5 s MP3, rendered once untouched
        let mp3 = try Fixtures.mp3(seconds: 5, vbr: true)
        let plain = try await Self.render(mp3, name: "speed1-plain") { _ in }
        // When rendered after the speed was changed and set back to 1 (and the volume to 100 %)
        let reset = try await Self.render(mp3, name: "speed1-reset") { engine in
            engine.setSpeed(1.5)
            engine.setVolume(40)
            engine.setSpeed(1)
            engine.setVolume(100)
        }
        // Then both are the same samples, bit for bit, and the whole file
        #expect(plain.frameCount == 5 * Self.rate)
        #expect(reset.samples == plain.samples)
    }

    @Test func positionsAreSourceFramesAtAnySpeed() throws {
        // Given a 20 s MP3 playing to the test's output at speed 2
        let registry = PlaybackEngineTests.registry()
        let mp3 = try Fixtures.mp3(seconds: 20, vbr: true)
        let output = ClockedOutput()
        let engine = PlaybackEngine(decoders: registry, sinks: output)
        engine.setSpeed(2)
        engine.load([mp3.path])
        #expect(output.settle(engine))
        // When 2 s of output are taken
        #expect(output.pull(2 * Self.rate) == 2 * Self.rate)
        // Then 4 s of the source were heard (within the speed stage's 20 ms)
        let first = try #require(engine.position)
        #expect(abs(Double(first.frame) / Double(Self.rate) - 4) < 0.02, "heard \(first.frame) frames in 2 s at speed 2")
        #expect(engine.speed == 2)
        // When the speed goes back to 1, once the ring's audio at speed 2 is out
        engine.setSpeed(1)
        #expect(output.settle(engine))
        output.pull(Self.rate)
        let settled = try #require(engine.position)
        output.pull(Self.rate)
        // Then the source advances at speed 1: a second of output, a second of source
        let advanced = Double(try #require(engine.position).frame - settled.frame) / Double(Self.rate)
        #expect(abs(advanced - 1) < 0.02, "advanced \(advanced) s in 1 s at speed 1")
        engine.shutdown()
    }

    @Test func aSpeedChangeWhilePausedKeepsThePlaceAndResumesAtTheNewSpeed() throws {
        // Given a 20 s MP3 played for a second at speed 1, then paused
        let registry = PlaybackEngineTests.registry()
        let mp3 = try Fixtures.mp3(seconds: 20, vbr: true)
        let output = ClockedOutput()
        let engine = PlaybackEngine(decoders: registry, sinks: output)
        engine.load([mp3.path])
        #expect(output.settle(engine))
        output.pull(Self.rate)
        engine.pause()
        #expect(output.settle(engine))
        let paused = try #require(engine.position)
        #expect(paused.frame == Int64(Self.rate))
        // When the speed is set to 2 while paused
        engine.setSpeed(2)
        #expect(output.settle(engine))
        // Then the place holds
        #expect(engine.position == paused)
        // and once resumed (what the ring held at speed 1 played out), the source advances two
        // seconds for each second taken
        engine.play()
        #expect(output.settle(engine))
        output.pull(Self.rate)
        let resumed = try #require(engine.position)
        #expect(resumed.frame > paused.frame)
        output.pull(Self.rate)
        let advanced = Double(try #require(engine.position).frame - resumed.frame) / Double(Self.rate)
        #expect(abs(advanced - 2) < 0.02, "advanced \(advanced) s in 1 s at speed 2")
        engine.shutdown()
    }

    @Test func seekingAtSpeedPlaysTheTargetWithNothingStale() throws {
        // Given a 20 s time-coded MP3 playing at speed 1.5 to the test's output, to end at 15 s,
        // a second taken
        let registry = PlaybackEngineTests.registry()
        let mp3 = try Fixtures.mp3(seconds: 20, vbr: true)
        let output = ClockedOutput()
        let engine = PlaybackEngine(decoders: registry, sinks: output)
        engine.setSpeed(1.5)
        engine.load([mp3.path], end: PlaybackPosition(item: 0, frame: 15 * Int64(Self.rate)))
        #expect(output.settle(engine))
        output.pull(Self.rate)
        // When it seeks to 12 s and plays to the end
        engine.seek(to: PlaybackPosition(item: 0, frame: 12 * Int64(Self.rate)))
        #expect(output.settle(engine))
        var pulls = 0
        while engine.state != .stopped, pulls < 100 {
            output.pull(Self.rate / 10)
            _ = output.settle(engine)
            pulls += 1
        }
        #expect(engine.state == .stopped)
        engine.shutdown()
        // Then what was heard is a second of the start, then seconds 12, 13, 14 in order, each
        // for 1/1.5 s: nothing from before the seek
        let track = SecondTrack(output.audio, channels: 1, rate: Self.rate)
        let seconds = track.seconds
        let start = try #require(seconds.firstIndex(of: 12), "\(track)")
        #expect(Array(seconds[start...]) == [12, 13, 14], "\(track)")
        #expect(!seconds[..<start].isEmpty && seconds[..<start].allSatisfy { $0 < 4 }, "\(track)")
        for heard in 12...14 {
            #expect(abs(track.duration(of: heard) - 1 / 1.5) < 0.02, "second \(heard): \(track)")
        }
        #expect(abs(Double(output.frameCount) / Double(Self.rate) - (1 + 3 / 1.5)) < 0.02, "\(output.frameCount) frames")
    }

    @Test func halfVolumeHalvesTheLevel() async throws {
        // Given a 5 s MP3 rendered at 100 % and at 50 %
        let mp3 = try Fixtures.mp3(seconds: 5, vbr: false)
        let full = try await Self.render(mp3, name: "volume100") { _ in }
        let half = try await Self.render(mp3, name: "volume50") { $0.setVolume(50) }
        // Then the level drops by 6 dB (±0.5 dB), and the volume reads back
        #expect(half.frameCount == full.frameCount)
        let ratio = AudioAnalysis.rms(half.samples) / AudioAnalysis.rms(full.samples)
        let decibels = 20 * log10(ratio)
        #expect(abs(decibels - 20 * log10(0.5)) < 0.5, "\(decibels) dB")
    }

    @Test func volumeAbove100AmplifiesAndIsLimitedUnderTheCeiling() async throws {
        // Given the time-coded MP3 (peak 0.5) and a loud one (a 440 Hz sine peaking near 0.88)
        let quiet = try Fixtures.mp3(seconds: 5, vbr: false)
        let loud = try BuildProducts.temporaryDirectory("engine-volume-loud").appendingPathComponent("loud.mp3")
        // (lavfi's sine has a peak of 1/8; ffmpeg's mono-to-stereo upmix takes 3 dB off.)
        try Command.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=3:sample_rate=44100",
                                   "-af", "volume=10", "-ac", "2", "-c:a", "libmp3lame", "-b:a", "192k", loud.path]).requireSuccess()
        // When each plays at 150 %
        let plain = try await Self.render(quiet, name: "volume-quiet100") { _ in }
        let louder = try await Self.render(quiet, name: "volume-quiet150") { $0.setVolume(150) }
        let clipped = try await Self.render(loud, name: "volume-loud150") { $0.setVolume(150) }
        // Then the quiet one is 1.5 times as loud, and the loud one is held by the limiter at its
        // sample ceiling (-1.5 dBFS, for -1 dBTP), never beyond, rather than clipped at ±1
        let ratio = AudioAnalysis.rms(louder.samples) / AudioAnalysis.rms(plain.samples)
        #expect(abs(20 * log10(ratio) - 20 * log10(1.5)) < 0.5, "ratio \(ratio)")
        let peak = clipped.samples.map(abs).max() ?? 0
        #expect(peak <= 0.8414 && peak > 0.83, "peak \(peak)")
    }

    @Test func outOfRangeValuesAreClamped() throws {
        let registry = PlaybackEngineTests.registry()
        let engine = PlaybackEngine(decoders: registry, sinks: try registry.sinkOpener(pluginID: "null", options: [:]))
        engine.setSpeed(10)
        engine.setVolume(-5)
        #expect(engine.speed == 4)
        #expect(engine.volume == 0)
        engine.setSpeed(0.1)
        engine.setVolume(.nan)
        engine.setVolume(400)
        #expect(engine.speed == 0.5)
        #expect(engine.volume == 150)
        engine.shutdown()
    }
}
