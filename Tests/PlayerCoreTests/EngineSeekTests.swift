import Foundation
import PlayerCore
import Synchronization
import Testing

/// The engine's decoder thread driven through its public commands, with counting decoders and a
/// sink that pulls in real time on its own thread.
@Suite struct EngineSeekTests {
    /// Takes 100 frames every 10 ms from its ring, recording what each start of it heard.
    final class RecordingSink: Sink, Sendable {
        let format: AudioFormat
        let name = "recording"
        let ring: RingBuffer
        /// What was pulled, one list per start; and whether the puller should run.
        let heard = Mutex<[[Float]]>([])
        let running = Atomic<Bool>(false)
        let stopped = DispatchSemaphore(value: 0)
        /// Frames a start takes at most; then it takes nothing more (nil: no end).
        let framesPerStart: Int?

        init(format: AudioFormat, ring: RingBuffer, framesPerStart: Int? = nil) {
            self.format = format
            self.ring = ring
            self.framesPerStart = framesPerStart
        }

        var latencyFrames: Int64 { 0 }

        func start() throws {
            heard.withLock { $0.append([]) }
            running.store(true, ordering: .releasing)
            let thread = Thread { [self] in
                var chunk = [Float](repeating: 0, count: 100 * format.channels)
                var taken = 0
                while running.load(ordering: .acquiring) {
                    if let most = framesPerStart, taken >= most {
                        Thread.sleep(forTimeInterval: 0.01)
                        continue
                    }
                    let frames = chunk.withUnsafeMutableBufferPointer { ring.read(into: $0.baseAddress!, frames: 100) }
                    taken += frames
                    heard.withLock { $0[$0.count - 1].append(contentsOf: chunk[..<(frames * format.channels)]) }
                    Thread.sleep(forTimeInterval: 0.01)
                }
                stopped.signal()
            }
            thread.start()
        }

        func stop() throws {
            guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
            stopped.wait()
        }

        func pause() throws { try stop() }
        func resume() throws { try start() }
        func drain() throws { try stop() }
        func close() { try? stop() }
    }

    final class RecordingOpener: SinkOpener, Sendable {
        let sinks = Mutex<[RecordingSink]>([])
        /// See `RecordingSink.framesPerStart`.
        let framesPerStart: Int?

        init(framesPerStart: Int? = nil) { self.framesPerStart = framesPerStart }

        func openSink(format: AudioFormat, source: RingBuffer) throws -> any Sink {
            let sink = RecordingSink(format: format, ring: source, framesPerStart: framesPerStart)
            sinks.withLock { $0.append(sink) }
            return sink
        }
    }

    /// What every start of every sink opened so far heard, in order.
    static func starts(_ sinks: RecordingOpener) -> [[Float]] {
        sinks.sinks.withLock { $0.flatMap { $0.heard.withLock { $0 } } }
    }

    /// Waits (30 s at most) until `condition` holds of what was heard. Blocks this thread on
    /// purpose: an async wait needs a cooperative-pool thread back after each nap, and on a loaded
    /// 2-core machine the blocking tests beside it can hold both for longer than the deadline.
    static func waitFor(_ sinks: RecordingOpener, _ condition: ([[Float]]) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if condition(starts(sinks)) { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return condition(starts(sinks))
    }

    @Test(arguments: [Int64(5000), 0])
    func aSeekInTheItemPlayingIsHeardFromItsTarget(frame: Int64) throws {
        // Given a 100 s item (each sample its frame's number), heard past its first 0.3 s
        let sinks = RecordingOpener()
        let engine = PlaybackEngine(decoders: CountingOpener(), sinks: sinks)
        engine.load(["100000"])
        #expect(Self.waitFor(sinks) { ($0.last?.last ?? 0) > 300 })
        let startsBefore = Self.starts(sinks).count
        // When it seeks within that item
        engine.seek(to: PlaybackPosition(item: 0, frame: frame))
        // Then the output restarts, and what is heard from there on begins at the target (at
        // frame 0 too: the item's decoder, kept open, is rewound rather than carried on)
        #expect(Self.waitFor(sinks) { $0.count > startsBefore && !($0.last?.isEmpty ?? true) })
        engine.shutdown()
        let first = Self.starts(sinks).last?.first
        #expect(first == Float(frame), "heard from \(first.map { "\($0)" } ?? "nothing")")
    }
}
