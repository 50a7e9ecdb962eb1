import Foundation
import PlayerCore
import PluginHost
import TestSupport
import Testing

/// plugin.h, the sink's `latency`: the host resumes another output from (frames pulled - latency),
/// so a file sink, whose written frames are final, reports 0 paced or not. A paced file sink that
/// reported one period put that period in both files on an output switch (the 441-frame overlap
/// seen at 44.1 kHz with 10 ms periods); with 0, the two files are the book once, end to end.
@Suite struct OutputSwitchLatencyTests {
    static func wavOpener(_ registry: PluginRegistry, _ path: URL) throws -> any SinkOpener {
        try registry.sinkOpener(pluginID: "wav", options: ["path": path.path, "paced": "true"])
    }

    /// Synchronous, as FifoSinkTests: its waits block this thread, so it never waits for a
    /// cooperative-pool thread (held by the blocking tests beside it) while the book plays on.
    @Test func switchingBetweenPacedFilesNeitherRepeatsNorLosesAFrame() throws {
        // Given a 6 s FLAC playing in real time into a.wav
        let registry = PlaybackEngineTests.registry()
        let flac = try Fixtures.flac(seconds: 6)
        let directory = try BuildProducts.temporaryDirectory("switch-latency")
        let (first, second) = (directory.appendingPathComponent("a.wav"), directory.appendingPathComponent("b.wav"))
        let engine = PlaybackEngine(decoders: registry, sinks: try Self.wavOpener(registry, first))
        engine.load([flac.path])
        // When, a second in, the output is switched to b.wav (paused around the switch, so that it
        // comes where the pause did: the engine takes its commands in order)
        let oneSecond = 58 + 44100 * 2 * 4
        let playedASecond = FifoSinkTests.wait(timeout: .seconds(30)) {
            ((try? FileManager.default.attributesOfItem(atPath: first.path)[.size] as? Int) ?? 0) >= oneSecond
        }
        engine.pause()
        engine.setOutput(try Self.wavOpener(registry, second))
        engine.play()
        let ended = FifoSinkTests.wait(timeout: .seconds(60)) {
            engine.state == .stopped && FileManager.default.fileExists(atPath: second.path)
        }
        engine.shutdown()
        // Then the book played to its end in b.wav, and the two files hold its frames once each
        #expect(playedASecond && ended)
        let (a, b) = (try WavFile.read(first), try WavFile.read(second))
        #expect(a.frameCount > 44100 / 2 && b.frameCount > 44100 / 2, "\(a.frameCount) + \(b.frameCount) frames")
        #expect(a.frameCount + b.frameCount == 6 * 44100, "\(a.frameCount) + \(b.frameCount) frames for \(6 * 44100)")
    }
}
