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
        // Given a 6 s FLAC playing in real time into a.wav
        let registry = PlaybackEngineTests.registry()
        let flac = try Fixtures.flac(seconds: 6)
        let directory = try BuildProducts.temporaryDirectory("switch-latency")
        let (first, second) = (directory.appendingPathComponent("a.wav"), directory.appendingPathComponent("b.wav"))
        let engine = PlaybackEngine(decoders: registry, sinks: try Self.wavOpener(registry, first))
        let collecting = Task { await TestSupport.events(of: engine, within: 90) }
        engine.load([flac.path])
        // When, a second in, the output is switched to b.wav (paused around the switch, so that
        // however slow the machine, it comes mid-book: the engine takes its commands in order)
        let oneSecond = 58 + 44100 * 2 * 4
        let playedASecond = await waitUntil(within: 30, every: 0.01) {
            ((try? FileManager.default.attributesOfItem(atPath: first.path)[.size] as? Int) ?? 0) >= oneSecond
        }
        engine.pause()
        engine.setOutput(try Self.wavOpener(registry, second))
        engine.play()
        let events = await collecting.value
        engine.shutdown()
        // Then the book played to its end, and the two files hold its frames once each
        #expect(playedASecond)
        #expect(events.contains { if case .ended = $0 { true } else { false } })
        let (a, b) = (try WavFile.read(first), try WavFile.read(second))
        #expect(a.frameCount > 44100 / 2 && b.frameCount > 44100 / 2, "\(a.frameCount) + \(b.frameCount) frames")
        #expect(a.frameCount + b.frameCount == 6 * 44100, "\(a.frameCount) + \(b.frameCount) frames for \(6 * 44100)")
    }
}
