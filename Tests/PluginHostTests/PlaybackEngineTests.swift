import Foundation
import PlayerCore
import PluginHost
import Synchronization
import TestSupport
import Testing

/// The engine driving real plugins (the built mpg123 decoder, null and wav outputs).
@Suite struct PlaybackEngineTests {
    static func registry() -> PluginRegistry {
        PluginRegistry(
            searchPath: PluginSearchPath(directories: [
                .init(path: BuildProducts.binDirectory.path, isExplicit: true, filePrefix: "libabplayer-"),
            ]),
            cacheDirectory: nil, log: { _, _, _ in })
    }

    /// The real registry, counting how often a file is opened.
    final class CountingOpener: DecoderOpener {
        let registry: PluginRegistry
        let opens = Mutex(0)

        init(_ registry: PluginRegistry) { self.registry = registry }

        func openDecoder(path: String) throws -> any Decoder {
            opens.withLock { $0 += 1 }
            return try registry.openDecoder(path: path)
        }
    }

    @Test func itemsPlayInOrderAndAFileThatFailsIsSkipped() async throws {
        // Given a list: a 5 s MP3, a missing file, a 3 s MP3
        let registry = Self.registry()
        let first = try Fixtures.mp3(seconds: 5, vbr: true)
        let third = try Fixtures.mp3(seconds: 3, vbr: false)
        let output = try BuildProducts.temporaryDirectory("engine-order").appendingPathComponent("out.wav")
        let engine = PlaybackEngine(
            decoders: registry, sinks: try registry.sinkOpener(pluginID: "wav", options: ["path": output.path]))
        // When the engine plays it to a WAV file
        engine.load([first.path, "/nonexistent/missing.mp3", third.path])
        let events = await TestSupport.events(of: engine, within: 60)
        engine.shutdown()
        // Then the missing file is reported, both others are announced in order, and playback ends
        let failedItems = events.compactMap { event -> Int? in if case let .failed(item, _) = event { item } else { nil } }
        let announced = events.compactMap { event -> Int? in if case let .itemChanged(info) = event { info.index } else { nil } }
        #expect(failedItems == [1])
        #expect(announced == [0, 2])
        #expect(events.contains { if case .ended = $0 { true } else { false } })
        // and the audio is the first file's seconds 0-4 followed by the third's 0-2, gaplessly
        let wav = try WavFile.read(output)
        #expect(wav.frameCount == 8 * 44100)
        let seconds = (0..<8).map { AudioAnalysis.secondAt(frame: $0 * 44100 + 22050, in: wav.samples, channels: 2, rate: 44100) }
        #expect(seconds == [0, 1, 2, 3, 4, 0, 1, 2])
    }

    @Test func aStartInAFileThatFailsIsNotCarriedIntoTheNextFile() async throws {
        // Given a list whose first file is missing, loaded to start 2 s into that first file
        let registry = Self.registry()
        let second = try Fixtures.mp3(seconds: 5, vbr: true)
        let output = try BuildProducts.temporaryDirectory("engine-failed-start").appendingPathComponent("out.wav")
        let engine = PlaybackEngine(
            decoders: registry, sinks: try registry.sinkOpener(pluginID: "wav", options: ["path": output.path]))
        // When it plays
        engine.load(["/nonexistent/missing.mp3", second.path], start: PlaybackPosition(item: 0, frame: 2 * 44100))
        let events = await TestSupport.events(of: engine, within: 60)
        engine.shutdown()
        // Then the failure is reported and the next file plays from its start, not from 2 s
        #expect(events.contains { if case .failed(item: 0, _) = $0 { true } else { false } })
        let wav = try WavFile.read(output)
        #expect(wav.frameCount == 5 * 44100)
        #expect(AudioAnalysis.secondAt(frame: 22050, in: wav.samples, channels: 2, rate: 44100) == 0)
    }

    @Test func pauseHoldsThePositionAndResumeContinuesWithoutReopening() throws {
        // Given a 20 s file playing to the test's output, 1 s taken
        let registry = Self.registry()
        let opener = CountingOpener(registry)
        let mp3 = try Fixtures.mp3(seconds: 20, vbr: true)
        let output = ClockedOutput()
        let engine = PlaybackEngine(decoders: opener, sinks: output)
        engine.load([mp3.path])
        #expect(output.settle(engine))
        #expect(output.pull(44100) == 44100)
        // When paused
        engine.pause()
        #expect(output.settle(engine))
        // Then the position is the second heard, and holds however long it is asked to play
        let paused = try #require(engine.position)
        #expect(paused == PlaybackPosition(item: 0, frame: 44100))
        #expect(output.pull(44100) == 0)
        #expect(engine.state == .paused)
        #expect(engine.position == paused)
        // When resumed, it continues from there, without opening the file again
        engine.play()
        #expect(output.settle(engine))
        #expect(output.pull(30870) == 30870)
        #expect(engine.state == .playing)
        #expect(engine.position == PlaybackPosition(item: 0, frame: 44100 + 30870))
        #expect(opener.opens.withLock { $0 } == 1)
        // and what was heard is the source's first 1.7 s, without a gap or a repeat at the pause
        let seconds = SecondTrack(output.audio, channels: 1, rate: 44100).seconds
        #expect(seconds == [0, 1], "\(seconds)")
        engine.shutdown()
    }

    @Test func seekingMovesWhatIsHeard() async throws {
        // Given a 20 s file decoding to a WAV file from the start
        let registry = Self.registry()
        let mp3 = try Fixtures.mp3(seconds: 20, vbr: true)
        let output = try BuildProducts.temporaryDirectory("engine-seek").appendingPathComponent("out.wav")
        let engine = PlaybackEngine(
            decoders: registry, sinks: try registry.sinkOpener(pluginID: "wav", options: ["path": output.path]))
        // When it is loaded paused at 15 s, then played
        engine.load([mp3.path], start: PlaybackPosition(item: 0, frame: 15 * 44100), play: false)
        #expect(await waitFor { engine.position == PlaybackPosition(item: 0, frame: 15 * 44100) })
        engine.play()
        _ = await TestSupport.events(of: engine, within: 60)
        engine.shutdown()
        // Then the output is seconds 15-19 only
        let wav = try WavFile.read(output)
        #expect(wav.frameCount == 5 * 44100)
        #expect(AudioAnalysis.secondAt(frame: 22050, in: wav.samples, channels: 2, rate: 44100) == 15)
    }

    private func waitFor(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<100 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition()
    }
}
