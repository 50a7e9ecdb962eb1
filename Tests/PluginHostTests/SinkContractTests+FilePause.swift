import Foundation
import PlayerCore
import PluginHost
import TestSupport
import Testing

/// The sink contract for a sink that writes a file and declares ABP_CAP_PAUSE (plugin.h): a pause
/// writes nothing, no silence, and the file is the frames pulled, in order, as if never paused.
extension SinkContractTests {
    struct FilePauseSeen: Sendable {
        var rate = 0
        var channels = 0
        var frames = 0
        var pulledBeforePause = 0
        var pulledWhilePaused = 0
        var drained = false
        var file: (samples: [Float], rate: Int?, channels: Int?)?
    }

    static var pausableFileWriters: [SinkContractTarget] {
        SinkContractTargets.all.filter { target in
            if case .file = target.provision { return target.plugin.capabilities.contains(.pause) }
            return false
        }
    }

    @Test(arguments: SinkContractTests.pausableFileWriters)
    func aPausedFileSinkWritesNothingAndItsFileIsTheFramesInOrder(_ target: SinkContractTarget) async throws {
        // Given the first of two seconds of a tone in the ring
        let seen = try await offThePool {
            let bench = try SinkContractBench(target)
            defer { bench.tearDown() }
            let (sink, ring) = try Self.open(target, bench)
            var seen = FilePauseSeen(rate: sink.format.rate, channels: sink.format.channels, frames: 2 * sink.format.rate)
            ContractTone.fill(ring, rate: seen.rate, upTo: seen.frames / 2)
            // When it is started, paused once it has taken some of it, the second second put in
            // the ring while it is paused, resumed a while later and drained
            try sink.start()
            _ = waitUntil(within: 10, every: 0.002) { ring.framesRead > 0 }
            try sink.pause()
            seen.pulledBeforePause = ring.framesRead
            ContractTone.fill(ring, rate: seen.rate, upTo: seen.frames)
            _ = waitUntil(within: Self.watchSeconds, every: 0.005) { ring.framesRead != seen.pulledBeforePause }
            seen.pulledWhilePaused = ring.framesRead - seen.pulledBeforePause
            try sink.resume()
            let lent = Lent(sink)
            seen.drained = returns(within: 30) { try? lent.value.drain() }
            sink.close()
            seen.file = try bench.captured()
            return seen
        }
        // Then it paused mid-tone, and the file holds exactly the tone, frame for frame: no
        // silence for the pause, nothing lost or written twice around it
        #expect(seen.drained, "\(target): drain did not return")
        #expect(seen.pulledBeforePause > 0 && seen.pulledWhilePaused == 0,
                "\(target): \(seen.pulledBeforePause) frames taken before the pause, \(seen.pulledWhilePaused) while paused")
        let file = try #require(seen.file, "\(target): no file captured")
        let expected = ContractTone.expected(frames: seen.frames, rate: seen.rate, channels: seen.channels)
        #expect(file.samples.count == expected.count, "\(target): \(file.samples.count / max(seen.channels, 1)) frames written of \(seen.frames)")
        if file.samples.count == expected.count {
            #expect(AudioAnalysis.maxAbsDifference(file.samples, expected) == 0, "\(target): not the tone that was put in")
        }
    }
}
