import Foundation
import PlayerCore
import TestSupport
import Testing

/// The sink contract where what the device plays can be heard (the PulseAudio server's monitor):
/// what the ring cannot show, that pause keeps the device's queue and stop drops it.
extension SinkContractTests {
    struct HeldSeen: Sendable {
        var rate = 0
        var frames = 0
        var pulledAtPause = 0
        /// The pause, at the shortest and longest it can have been.
        var pauseSeconds = (shortest: 0.0, longest: 0.0)
        var drained = false
        var pulledAtStop = 0
        var paused: HeardTone?
        var stopped: HeardTone?
    }

    @Test(arguments: SinkContractTargets.listenable)
    func pauseKeepsWhatTheServerHoldsAndStopDiscardsIt(_ target: SinkContractTarget) async throws {
        // Given three seconds of a tone in the ring, the server's monitor recorded
        let seen = try await offThePool {
            var seen = HeldSeen()
            do {
                let bench = try SinkContractBench(target)
                defer { bench.tearDown() }
                guard let monitor = try SinkContractMonitor(bench) else { throw ContractFailure(description: "no monitor") }
                let (sink, ring) = try Self.open(target, bench)
                defer { sink.close() }
                (seen.rate, seen.frames) = (sink.format.rate, 3 * sink.format.rate)
                ContractTone.fill(ring, rate: seen.rate, upTo: seen.frames)
                // When it is paused a second and a half in, for half a second, then resumed and drained
                try sink.start()
                _ = waitUntil(within: 10, every: 0.005) { ring.framesRead >= seen.rate * 3 / 2 }
                let clock = ContinuousClock()
                let askedToPause = clock.now
                try sink.pause()
                let paused = clock.now
                seen.pulledAtPause = ring.framesRead
                monitor.waitForMore(0.5)
                let askedToResume = clock.now
                try sink.resume()
                // (the silence lies between the calls' returns and their starts)
                seen.pauseSeconds = ((askedToResume - paused).seconds, (clock.now - askedToPause).seconds)
                try sink.drain()
                seen.drained = ring.framesRead == seen.frames
                seen.paused = try monitor.heard(afterMore: 0.2)
            }
            do {
                // and, on a fresh server, stopped with three seconds pulled, most of them played
                let bench = try SinkContractBench(target)
                defer { bench.tearDown() }
                guard let monitor = try SinkContractMonitor(bench) else { throw ContractFailure(description: "no monitor") }
                let (sink, ring) = try Self.open(target, bench)
                defer { sink.close() }
                ContractTone.fill(ring, rate: seen.rate)
                try sink.start()
                _ = waitUntil(within: 10, every: 0.005) { ring.framesRead >= seen.rate * 3 }
                try sink.stop()
                seen.pulledAtStop = ring.framesRead
                // (long enough for what the server held to be heard, had it been kept)
                seen.stopped = try monitor.heard(afterMore: 1.5)
            }
            return seen
        }
        // Then across the pause nothing it held was lost or heard twice: the tone lasts its three
        // seconds around one silence of about the pause
        #expect(seen.drained, "\(target): not drained")
        let paused = try #require(seen.paused)
        #expect(abs(paused.span - paused.longestGap - 3) < 0.1, "\(target): heard \(paused.span - paused.longestGap) s of 3 s around a pause")
        #expect(paused.longestGap > seen.pauseSeconds.shortest - 0.1 && paused.longestGap < seen.pauseSeconds.longest + 0.1,
                "\(target): a silence of \(paused.longestGap) s for a pause of \(seen.pauseSeconds) s")
        #expect(abs(paused.gapStart - Double(seen.pulledAtPause) / Double(seen.rate)) < 1.5,
                "\(target): the silence came \(paused.gapStart) s in, \(Double(seen.pulledAtPause) / Double(seen.rate)) s pulled at the pause")
        // and after a stop, what the server held was not played: less was heard than pulled
        let stopped = try #require(seen.stopped)
        let pulled = Double(seen.pulledAtStop) / Double(seen.rate)
        #expect(stopped.heardAnything && stopped.span < pulled - 0.25, "\(target): heard \(stopped.span) s of \(pulled) s pulled before stop")
    }
}
