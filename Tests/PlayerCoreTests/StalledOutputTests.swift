import Foundation
@testable import PlayerCore
import Synchronization
import Testing
import TestSupport

/// A sink that stops taking audio (its server died, or it hangs) must never hold the decoder
/// thread: every wait for room in the ring ends on a command that ends the audio.
@Suite struct StalledOutputTests {
    /// Takes nothing from its ring: a JACK client whose server was just killed.
    final class StalledSink: Sink, Sendable {
        let format: AudioFormat
        let name = "stalled"
        init(format: AudioFormat) { self.format = format }
        var latencyFrames: Int64 { 0 }
        func start() throws {}
        func pause() throws {}
        func resume() throws {}
        func drain() throws {}
        func stop() throws {}
        func close() {}
    }

    struct StalledOpener: SinkOpener {
        func openSink(format: AudioFormat, source: RingBuffer) throws -> any Sink { StalledSink(format: format) }
    }

    /// Waits (5 s at most, polling, and a last look after a late wake-up) for `semaphore`.
    static func signalled(_ semaphore: DispatchSemaphore) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            if semaphore.wait(timeout: .now()) == .success { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return semaphore.wait(timeout: .now()) == .success
    }

    @Test(arguments: [
        EngineCore.Command.stop, .pause, .toggle, .shutdown, .seek(PlaybackPosition(item: 0, frame: 0)),
        .sinkStatus(.lost("the server went away"), generation: 1),
    ])
    func aWriteWaitingForAStalledSinkEndsOnACommandThatEndsTheAudio(command: EngineCore.Command) async throws {
        // Given the decoder thread's writer with a sink that takes nothing, writing twice what
        // its ring holds (as a resampler's flush can), so it waits for room
        let (_, emit) = AsyncStream.makeStream(of: PlaybackEvent.self)
        let core = EngineCore(emit: EventEmitter(stream: emit, handler: nil))
        let producer = Producer(core: core, decoders: CountingOpener(), sinks: StalledOpener(), ahead: .listening)
        let ring = try #require(producer.ensureSink(for: AudioFormat(rate: 1000, channels: 1)))
        let samples = [Float](repeating: 0.5, count: ring.capacityFrames * 2)
        let returned = DispatchSemaphore(value: 0)
        Thread {
            samples.withUnsafeBufferPointer { producer.writeToRing($0.baseAddress!, frames: $0.count) }
            returned.signal()
        }.start()
        let deadline = ContinuousClock.now + .seconds(5)
        while ring.freeFrames > 0 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(ring.freeFrames == 0)
        // When a setting arrives, the write keeps waiting (the audio goes on, nothing is dropped)
        core.send(.setVolume(50))
        await letRealTimePass(seconds: 0.3, because: "the write must go on waiting through a setting: only time passing shows it does not return")
        #expect(returned.wait(timeout: .now()) == .timedOut)
        // Then a command that ends the audio ends the write at once, marked as cut short
        core.send(command)
        #expect(await Self.signalled(returned), "the writer still waits for a sink that takes nothing")
        #expect(producer.writeAbandoned)
    }

    /// Fails to open until `isAvailable` is set (a server not started yet), counting the tries.
    final class LateOpener: SinkOpener, Sendable {
        let isAvailable = Atomic<Bool>(false)
        let tries = Atomic<Int>(0)
        /// A second of audio at most per start: then the output takes nothing more and the engine
        /// reports nothing more. Taking on, a test starved for minutes on a loaded run saw the item
        /// end (the engine stopped) and its `outputRestored` pushed out of the engine's event
        /// buffer by the position reports that followed it.
        let sinks = EngineSeekTests.RecordingOpener(framesPerStart: 10_000)

        func openSink(format: AudioFormat, source: RingBuffer) throws -> any Sink {
            tries.add(1, ordering: .relaxed)
            guard isAvailable.load(ordering: .acquiring) else {
                throw AudioError(.device, subject: "late", reason: "no server is running yet")
            }
            return try sinks.openSink(format: format, source: source)
        }
    }

    final class EventLog: Sendable {
        let events = Mutex<[PlaybackEvent]>([])
    }

    @Test func anOutputThatDoesNotOpenAtTheStartIsWaitedForAndPlaysFromThePlaceKept() async throws {
        // Given an output that does not open yet, and a 100 s item loaded at its frame 5000 (the
        // recording sink takes 10,000 frames a second: a 10 s item had ended, the engine stopped,
        // by the time a test starved for minutes on a loaded run looked at its state)
        let opener = LateOpener()
        let engine = PlaybackEngine(decoders: CountingOpener(), sinks: opener)
        let log = EventLog()
        let follower = Task { for await event in engine.events { log.events.withLock { $0.append(event) } } }
        let clock = ContinuousClock()
        let loaded = clock.now
        engine.load(["1000000"], start: PlaybackPosition(item: 0, frame: 5000))
        // Then it says the output is lost, pauses at the place, and keeps trying with backoff.
        // (Deadlines are generous and times measured: other suites' blocking tests can starve
        // the cooperative pool, this test's event follower included, for many seconds.)
        func waitFor(_ what: @escaping (PlaybackEvent) -> Bool) async -> Bool {
            let deadline = clock.now + .seconds(180)
            while clock.now < deadline {
                if log.events.withLock({ $0.contains(where: what) }) { return true }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return log.events.withLock { $0.contains(where: what) }
        }
        #expect(await waitFor { if case let .outputLost(message) = $0 { message.contains("no server is running yet") } else { false } })
        #expect(log.events.withLock { $0.contains { if case .failed = $0 { true } else { false } } } == false)
        let sinceLoad = (clock.now - loaded) / .seconds(1)
        await letRealTimePass(seconds: max(0, 3 - sinceLoad), because: "the backoff between tries is in real time: 3 s of it show whether it backs off")
        #expect(await waitUntil(within: 60) { opener.tries.load(ordering: .relaxed) >= 2 })
        #expect(engine.state == .paused)
        #expect(engine.position == PlaybackPosition(item: 0, frame: 5000))
        // Tries at 0, 0.25, 0.75, 1.75 s, then every 2 s: at most 5 + t/2 by time t (one every
        // 0.25 s would be 4 t), and at least 2 by 3 s.
        let tries = opener.tries.load(ordering: .relaxed)
        let elapsed = (clock.now - loaded) / .seconds(1)
        #expect(tries >= 2 && Double(tries) <= 5 + elapsed / 2, "\(tries) tries in \(elapsed) s")
        // When the output appears
        opener.isAvailable.store(true, ordering: .releasing)
        // Then within the longest backoff (2 s, and slack for a loaded machine) it plays, from
        // the place kept
        #expect(await waitFor { if case .outputRestored = $0 { true } else { false } })
        #expect(try await EngineSeekTests.waitFor(opener.sinks) { ($0.last?.count ?? 0) > 0 })
        #expect(EngineSeekTests.starts(opener.sinks).first?.first == 5000)
        #expect(engine.state == .playing)
        engine.shutdown()
        await follower.value
    }
}
