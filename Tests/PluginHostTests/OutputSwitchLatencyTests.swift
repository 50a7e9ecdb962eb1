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

    @Test func switchingBetweenPacedFilesNeitherRepeatsNorLosesAFrame() async throws {
        // Given a 3 s FLAC playing in real time into a.wav
        let registry = PlaybackEngineTests.registry()
        let flac = try Fixtures.flac(seconds: 3)
        let directory = try BuildProducts.temporaryDirectory("switch-latency")
        let (first, second) = (directory.appendingPathComponent("a.wav"), directory.appendingPathComponent("b.wav"))
        let engine = PlaybackEngine(decoders: registry, sinks: try Self.wavOpener(registry, first))
        engine.load([flac.path])
        // When, a second in, the output is switched to b.wav
        let oneSecond = 58 + 44100 * 2 * 4
        let playedASecond = await waitUntil(within: 30, every: 0.01) {
            ((try? FileManager.default.attributesOfItem(atPath: first.path)[.size] as? Int) ?? 0) >= oneSecond
        }
        engine.setOutput(try Self.wavOpener(registry, second))
        let events = await TestSupport.events(of: engine, within: 60)
        engine.shutdown()
        // Then the book played to its end, and the two files hold its frames once each
        #expect(playedASecond)
        #expect(events.contains { if case .ended = $0 { true } else { false } })
        let (a, b) = (try WavFile.read(first), try WavFile.read(second))
        #expect(a.frameCount > 44100 / 2 && b.frameCount > 44100 / 2, "\(a.frameCount) + \(b.frameCount) frames")
        #expect(a.frameCount + b.frameCount == 3 * 44100, "\(a.frameCount) + \(b.frameCount) frames for \(3 * 44100)")
    }
}
