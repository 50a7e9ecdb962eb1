import ABPluginABI
import Foundation
import PlayerCore
@testable import PluginHost
import Synchronization
import TestSupport
import Testing

/// The sink contract: what every sink plugin does, checked on each one found by its descriptor
/// (null, wav, alsa, pulse, jack, and $ABPLAYER_CONTRACT_SINK; plugin-sdk/README.md), driven in
/// process through the host's own adapter and ring buffer, against the device SinkContractTargets
/// gives it.
///
/// Each test does its blocking part on a thread of its own (`offThePool`: a sink's test waits
/// for seconds of audio, and two such waits must not hold both of the pool's threads on two
/// cores), which returns what it saw; the test then judges it. Times are measured, and waits are
/// for conditions with deadlines: a slow machine makes a wait longer, never a check wrong. The one
/// kind of fixed window is a watch for something that must not happen (a pull while paused),
/// which ends early, failing, when it does.
@Suite struct SinkContractTests {
    static let stereo = AudioFormat(rate: 44100, channels: 2)
    /// Four seconds at the highest rate a sink here runs at: room to measure a pace in.
    static let ringFrames = 4 * 48000
    /// How long a watch for pulls that must not come lasts.
    static let watchSeconds = 0.6

    static func open(_ target: SinkContractTarget, _ bench: SinkContractBench,
                     format: AudioFormat = stereo) throws -> (sink: any Sink, ring: RingBuffer) {
        let ring = RingBuffer(channels: format.channels, capacityFrames: ringFrames)
        let opener = try target.registry.sinkOpener(pluginID: target.plugin.id, options: bench.options)
        return (try opener.openSink(format: format, source: ring), ring)
    }

    @Test func everySinkBuiltHereIsATargetAndAThirdPartysLoads() {
        let built = SinkContractTargets.built.sinks.map(\.id)
        #expect(!built.isEmpty, "no sink in \(BuildProducts.binDirectory.path)")
        #expect(Set(SinkContractTargets.all.map(\.plugin.id)).isSuperset(of: built))
        #expect(Set(SinkContractTargets.provisions.keys).isSubset(of: built), "the provision table names a sink that is not built")
        #expect(SinkContractTargets.discovered.problems.isEmpty, "\(SinkContractTargets.discovered.problems)")
    }

    // MARK: open

    @Test(arguments: SinkContractTargets.all)
    func opensAtASaneFormat(_ target: SinkContractTarget) async throws {
        // Given the target's device
        // When it is opened for 44.1 kHz stereo, 48 kHz mono and 22.05 kHz stereo
        let requests = [Self.stereo, AudioFormat(rate: 48000, channels: 1), AudioFormat(rate: 22050, channels: 2)]
        let actuals = try await offThePool {
            let bench = try SinkContractBench(target)
            defer { bench.tearDown() }
            return try requests.map { requested in
                let (sink, _) = try Self.open(target, bench, format: requested)
                defer { sink.close() }
                return sink.format
            }
        }
        // Then each runs at a real format, at the rate asked for unless it may change it
        for (requested, actual) in zip(requests, actuals) {
            #expect(actual.rate > 0 && (1...8).contains(actual.channels), "\(target): \(requested) opened as \(actual)")
            if !target.mayChangeRate {
                #expect(actual.rate == requested.rate, "\(target): \(requested) opened as \(actual) without ABP_CAP_FIXED_RATE")
            }
        }
    }

    @Test(arguments: SinkContractTargets.all)
    func badOptionsAreRefusedInOneLineNamingThem(_ target: SinkContractTarget) async throws {
        // Given every option the sink declares with a value not of its type, and one it does not declare
        let bad = target.plugin.options.map { spec -> (String, String) in
            let value = switch spec.type {
            case .int: "soon"
            case .bool: "maybe"
            case .string, .path: ""
            }
            return (spec.name, value)
        } + [("no-such-option", "1")]
        for (name, value) in bad {
            var options = target.options
            options[name] = value
            // When the output is asked for with it
            let error = #expect(throws: AudioError.self, "\(target): \(name)=\(value)") {
                try target.registry.sinkOpener(pluginID: target.plugin.id, options: options)
            }
            // Then it is refused before the plugin is opened, in one line naming the option
            let text = error.map(\.description) ?? ""
            #expect(text.contains(name) && !text.contains("\n"), "\(target): \(name)=\(value): \(text)")
        }

        // When an option has a value of the right type that names nothing there is (a folder,
        // a PCM, a server), which only the plugin can find out
        let refusal = try await offThePool { () -> (option: String, value: String, error: String?)? in
            let scratch = try BuildProducts.temporaryDirectory("sink-contract-refusal")
            defer { try? FileManager.default.removeItem(at: scratch) }
            guard let (option, value) = target.provision.refusedValue(in: scratch, plugin: target.plugin) else { return nil }
            var options = target.options
            options[option] = value
            return try SinkContractBench.takingJackTurn(if: target.provision == .jackServer) {
                let ring = RingBuffer(channels: 2, capacityFrames: 4096)
                do {
                    try target.registry.sinkOpener(pluginID: target.plugin.id, options: options).openSink(format: Self.stereo, source: ring).close()
                    return (option, value, nil)
                } catch {
                    return (option, value, "\(error)")
                }
            }
        }
        // Then the plugin refuses it at open, in one line naming it
        if let refusal {
            let error = try #require(refusal.error, "\(target): opened with \(refusal.option)=\(refusal.value)")
            #expect(error.contains(refusal.value) && !error.contains("\n"), "\(target): \(error)")
        }
    }

    // MARK: pace

    struct PaceSeen: Sendable {
        var rate = 0
        var reached = false
        var frames = 0
        var seconds = 0.0
        /// Seconds of audio taken per second of wall clock.
        var speed: Double { seconds > 0 ? Double(frames) / Double(rate) / seconds : .infinity }
    }

    @Test(arguments: SinkContractTargets.all)
    func aStartedSinkPullsAtItsPace(_ target: SinkContractTarget) async throws {
        // Given the sink opened on a ring holding four seconds of a tone
        let seen = try await offThePool {
            let bench = try SinkContractBench(target)
            defer { bench.tearDown() }
            let (sink, ring) = try Self.open(target, bench)
            defer { sink.close() }
            var seen = PaceSeen(rate: sink.format.rate)
            let clock = ContinuousClock()
            ContractTone.fill(ring, rate: seen.rate)
            // When it is started, and what it takes is measured against the wall clock
            switch target.pace {
            case .realTime:
                try sink.start()
                // (from half a second in: the device's first fill comes at once)
                guard waitUntil(within: 10, every: 0.005, { ring.framesRead >= seen.rate / 2 }) else { return seen }
                let (start, first) = (clock.now, ring.framesRead)
                seen.reached = waitUntil(within: 15, every: 0.005) { ring.framesRead >= first + seen.rate * 3 / 2 }
                (seen.frames, seen.seconds) = (ring.framesRead - first, (clock.now - start).seconds)
            case .asFastAsItComes:
                let start = clock.now
                try sink.start()
                seen.reached = waitUntil(within: 20, every: 0.002) { ring.availableFrames == 0 }
                (seen.frames, seen.seconds) = (ring.framesRead, (clock.now - start).seconds)
            }
            try sink.stop()
            return seen
        }
        // Then a real-time sink takes about a second of audio a second (0.5x to 2x), and one
        // without a clock takes it faster than twice real time
        #expect(seen.reached, "\(target): took \(seen.frames) frames in \(seen.seconds) s")
        switch target.pace {
        case .realTime: #expect((0.5...2).contains(seen.speed), "\(target): \(seen.speed)x real time")
        case .asFastAsItComes: #expect(seen.speed > 2, "\(target): \(seen.speed)x real time")
        }
    }

    // MARK: pause, resume, stop, start

    struct PauseSeen: Sendable {
        var started = false
        var pauseSeconds = 0.0
        var pulledWhilePaused = 0
        var resumed = false
        var stopSeconds = 0.0
        var pulledWhileStopped = 0
        var restarted = false
    }

    @Test(arguments: SinkContractTargets.all)
    func pauseAndStopEndPullsAndResumeAndStartBringThemBack(_ target: SinkContractTarget) async throws {
        // Given the sink playing from a full ring
        let seen = try await offThePool {
            let bench = try SinkContractBench(target)
            defer { bench.tearDown() }
            let (sink, ring) = try Self.open(target, bench)
            defer { sink.close() }
            let rate = sink.format.rate
            var seen = PauseSeen()
            let clock = ContinuousClock()
            ContractTone.fill(ring, rate: rate)
            try sink.start()
            seen.started = waitUntil(within: 10, every: 0.005) { ring.framesRead > 0 }
            // When it is paused, with the ring full again (a sink still pulling would find audio)
            var asked = clock.now
            try sink.pause()
            seen.pauseSeconds = (clock.now - asked).seconds
            let paused = ring.framesRead
            ContractTone.fill(ring, rate: rate)
            _ = waitUntil(within: Self.watchSeconds, every: 0.005) { ring.framesRead != paused }
            seen.pulledWhilePaused = ring.framesRead - paused
            // and resumed
            let resumed = ring.framesRead
            try sink.resume()
            seen.resumed = waitUntil(within: 10, every: 0.005) { ring.framesRead > resumed }
            // and stopped, the ring full again
            asked = clock.now
            try sink.stop()
            seen.stopSeconds = (clock.now - asked).seconds
            let stopped = ring.framesRead
            ContractTone.fill(ring, rate: rate)
            _ = waitUntil(within: Self.watchSeconds, every: 0.005) { ring.framesRead != stopped }
            seen.pulledWhileStopped = ring.framesRead - stopped
            // and started again on new audio (the host drops what the ring held, as the engine does)
            ring.discardUnread()
            ContractTone.fill(ring, rate: rate)
            let restarted = ring.framesRead
            try sink.start()
            seen.restarted = waitUntil(within: 10, every: 0.005) { ring.framesRead > restarted }
            try sink.stop()
            return seen
        }
        // Then nothing at all is pulled once pause or stop has returned (plugin.h: they return
        // only once pull is not running), both return at once (stop does not play out what the
        // device holds), and resume and start (after stop) pull again
        #expect(seen.started, "\(target): never pulled")
        #expect(seen.pulledWhilePaused == 0, "\(target): pulled \(seen.pulledWhilePaused) frames after pause returned")
        #expect(seen.resumed, "\(target): no pull after resume")
        #expect(seen.pulledWhileStopped == 0, "\(target): pulled \(seen.pulledWhileStopped) frames after stop returned")
        #expect(seen.restarted, "\(target): no pull after stop and start")
        #expect(seen.pauseSeconds < 1 && seen.stopSeconds < 1, "\(target): pause took \(seen.pauseSeconds) s, stop \(seen.stopSeconds) s")
    }

    // MARK: drain, and what the device got

    struct DrainSeen: Sendable {
        var rate = 0
        var channels = 0
        var frames = 0
        var drained = false
        var drainError: String?
        var secondsFromStart = 0.0
        var leftInRing = -1
        var pulled = 0
        var pulledAfterDrain = 0
        var file: (samples: [Float], rate: Int?, channels: Int?)?
        var monitor: HeardTone?
    }

    @Test(arguments: SinkContractTargets.all)
    func drainPlaysEverythingInTheRingThenStops(_ target: SinkContractTarget) async throws {
        // Given two seconds of a tone in the ring (and the server's monitor recorded, for pulse)
        let seen = try await offThePool {
            let bench = try SinkContractBench(target)
            defer { bench.tearDown() }
            let monitor = try SinkContractMonitor(bench)
            let (sink, ring) = try Self.open(target, bench)
            var seen = DrainSeen(rate: sink.format.rate, channels: sink.format.channels, frames: 2 * sink.format.rate)
            ContractTone.fill(ring, rate: seen.rate, upTo: seen.frames)
            // When it is started and drained at once
            let clock = ContinuousClock()
            let start = clock.now
            try sink.start()
            let lent = Lent(sink)
            let drainError = ErrorText()
            seen.drained = returns(within: 30) {
                do { try lent.value.drain() } catch { drainError.text.withLock { $0 = "\(error)" } }
            }
            seen.drainError = drainError.text.withLock { $0 }
            seen.secondsFromStart = (clock.now - start).seconds
            (seen.leftInRing, seen.pulled) = (ring.availableFrames, ring.framesRead)
            // and more audio comes after
            let drained = ring.framesRead
            ContractTone.fill(ring, rate: seen.rate)
            _ = waitUntil(within: Self.watchSeconds, every: 0.005) { ring.framesRead != drained }
            seen.pulledAfterDrain = ring.framesRead - drained
            sink.close()
            seen.file = try bench.captured()
            // (what was heard reaches parec within its 20 ms fragments)
            seen.monitor = try monitor?.heard(afterMore: 0.2)
            return seen
        }
        // Then drain returned once everything was pulled and, for a real-time sink, played (two
        // seconds after start at the soonest, give or take a device's clock), and nothing more
        // was pulled after it
        #expect(seen.drained && seen.drainError == nil, "\(target): drain \(seen.drained ? "failed: \(seen.drainError ?? "")" : "did not return")")
        #expect(seen.leftInRing == 0 && seen.pulled == seen.frames, "\(target): \(seen.leftInRing) frames left, \(seen.pulled) pulled")
        if target.pace == .realTime {
            #expect(seen.secondsFromStart >= 1.6, "\(target): 2 s drained \(seen.secondsFromStart) s after start")
        }
        #expect(seen.pulledAfterDrain == 0, "\(target): pulled \(seen.pulledAfterDrain) frames after drain returned")
        // and a file holds exactly the tone, frame for frame
        if let file = seen.file {
            if let rate = file.rate { #expect(rate == seen.rate, "\(target)") }
            if let channels = file.channels { #expect(channels == seen.channels, "\(target)") }
            #expect(file.samples.count == seen.frames * seen.channels, "\(target): \(file.samples.count / max(seen.channels, 1)) frames written of \(seen.frames)")
            let expected = ContractTone.expected(frames: seen.frames, rate: seen.rate, channels: seen.channels)
            if file.samples.count == expected.count {
                #expect(AudioAnalysis.maxAbsDifference(file.samples, expected) == 0, "\(target): not the tone that was put in")
            }
            let frequency = AudioAnalysis.dominantFrequency(file.samples, channels: seen.channels, rate: seen.rate, from: 0, count: seen.frames)
            #expect(abs(frequency - ContractTone.frequency) < 1, "\(target): \(frequency) Hz")
        }
        // and the server played the tone, whole and without a gap, at its pitch
        if let monitor = seen.monitor {
            #expect(monitor.heardAnything, "\(target): the monitor heard nothing")
            #expect(abs(monitor.span - 2) < 0.1, "\(target): the monitor heard \(monitor.span) s of the tone")
            #expect(monitor.longestGap < 0.1, "\(target): a gap of \(monitor.longestGap) s in the tone, \(monitor.gapStart) s in")
            #expect(abs(monitor.frequency - ContractTone.frequency) < 2, "\(target): the monitor heard \(monitor.frequency) Hz")
        }
    }

    // MARK: latency

    struct LatencySeen: Sendable {
        var rate = 0
        var samples: [(stage: String, frames: Int64?)] = []
    }

    @Test(arguments: SinkContractTargets.all)
    func latencyIsNeverNegativeAndUnderTwoSeconds(_ target: SinkContractTarget) async throws {
        // Given the sink, called through its own ops (the host clamps what it reports)
        let seen = try await offThePool {
            let bench = try SinkContractBench(target)
            defer { bench.tearDown() }
            let ring = RingBuffer(channels: 2, capacityFrames: Self.ringFrames)
            let sink = try RawSink(target, options: bench.options, requested: abp_format(rate: 44100, channels: 2), ring: ring)
            var seen = LatencySeen(rate: Int(sink.format.rate))
            // When its latency is asked when opened, eight times while it plays, paused and stopped
            seen.samples.append(("opened", sink.latency))
            ContractTone.fill(ring, rate: seen.rate)
            try ContractFailure.check(sink.start(), "start")
            for _ in 0..<8 {
                let before = ring.framesRead
                ContractTone.fill(ring, rate: seen.rate)
                _ = waitUntil(within: 2, every: 0.005) { ring.framesRead >= before + seen.rate / 20 }
                seen.samples.append(("playing", sink.latency))
            }
            try ContractFailure.check(sink.pause(), "pause")
            seen.samples.append(("paused", sink.latency))
            try ContractFailure.check(sink.stop(), "stop")
            seen.samples.append(("stopped", sink.latency))
            sink.close()
            return seen
        }
        // Then it is never negative, under two seconds, constant when not measured, and 0 where
        // what is written is heard: a file sink, paced or not (plugin.h, `latency`), and null
        let values = seen.samples.compactMap(\.frames)
        for (stage, frames) in seen.samples {
            guard let frames else { continue }
            #expect(frames >= 0 && frames < Int64(2 * seen.rate), "\(target): \(frames) frames \(stage)")
        }
        if !target.measuresLatency {
            #expect(Set(values).count <= 1, "\(target): no ABP_CAP_LATENCY, yet \(seen.samples)")
        }
        if target.writtenIsHeard {
            #expect(values.allSatisfy { $0 == 0 }, "\(target): \(seen.samples)")
        }
    }

    // MARK: a lost device

    struct LossSeen: Sendable {
        var playing = false
        var reported = false
        var statuses: [(status: Int32, message: String)] = []
        var closed = false
    }

    @Test(arguments: SinkContractTargets.losable)
    func aLostDeviceIsReportedAndCloseStillReturns(_ target: SinkContractTarget) async throws {
        let loss = try #require(target.provision.loss)
        // Given the sink playing (to a file on a 256 KiB disk, when it writes one)
        let seen = try await offThePool {
            let bench = try SinkContractBench(target, onSmallDisk: loss == .diskFull ? 256 * 1024 : nil)
            defer { bench.tearDown() }
            let ring = RingBuffer(channels: 2, capacityFrames: Self.ringFrames)
            let sink = try RawSink(target, options: bench.options, requested: abp_format(rate: 44100, channels: 2), ring: ring)
            let rate = Int(sink.format.rate)
            var seen = LossSeen()
            ContractTone.fill(ring, rate: rate)
            try ContractFailure.check(sink.start(), "start")
            seen.playing = waitUntil(within: 10, every: 0.005) { ring.framesRead >= rate / 4 }
            // When its server dies, or its disk fills up (the ring kept full meanwhile)
            bench.loseDevice()
            seen.reported = waitUntil(within: 15) {
                ContractTone.fill(ring, rate: rate)
                return sink.state.statuses.withLock { !$0.isEmpty }
            }
            seen.statuses = sink.state.statuses.withLock { $0.map { ($0.status.rawValue, $0.message) } }
            // and the host closes it
            let lent = Lent(sink)
            seen.closed = returns(within: 20) { lent.value.close() }
            return seen
        }
        // Then the sink said so through the source's status, as a device or I/O failure in one
        // line, and close returned
        #expect(seen.playing, "\(target): never played")
        #expect(seen.reported, "\(target): no status within 15 s")
        if let first = seen.statuses.first {
            #expect([ABP_ERR_DEVICE.rawValue, ABP_ERR_IO.rawValue].contains(first.status), "\(target): \(seen.statuses)")
            #expect(!first.message.isEmpty && !first.message.contains("\n"), "\(target): \(seen.statuses)")
        }
        #expect(seen.closed, "\(target): close did not return")
    }
}
