import Foundation
import PlayerCore
import Synchronization

/// An output that runs at its own rate (the engine resamples to it) and takes frames from its
/// ring as fast as they come, keeping all it heard and, after each pull, the position the engine
/// reported then (its latency is 0: what it took is what was heard). It also keeps where it was
/// stopped (the engine stops the output before a jump and drops what the ring still holds), so a
/// test knows where what was heard stops following on from what came before; a pause does not.
final class RecordingSink: Sink, Sendable {
    let format: AudioFormat
    let name = "recording"
    let ring: RingBuffer
    let opener: Opener
    let running = Atomic<Bool>(false)
    let stopped = DispatchSemaphore(value: 0)

    final class Opener: SinkOpener, Sendable {
        let rate: Int
        /// Set once the engine exists, to ask it where it is.
        let engine = Mutex<PlaybackEngine?>(nil)
        /// Mono (channel 0): the tests' fixtures are mono.
        let heard = Mutex<[Float]>([])
        let positions = Mutex<[(outputFrame: Int, position: PlaybackPosition)]>([])
        /// The output frames (counts of `heard`) at which the sink was stopped, in order: after
        /// each, what is heard comes from wherever the engine jumped to.
        let stops = Mutex<[Int]>([])

        /// The first stop after `outputFrame`: the end of the audio heard in one run from there.
        func stop(after outputFrame: Int) -> Int? { stops.withLock { $0.first { $0 > outputFrame } } }

        init(rate: Int) { self.rate = rate }

        func openSink(format: AudioFormat, source: RingBuffer) throws -> any Sink {
            RecordingSink(format: AudioFormat(rate: rate, channels: format.channels), ring: source, opener: self)
        }
    }

    init(format: AudioFormat, ring: RingBuffer, opener: Opener) {
        self.format = format
        self.ring = ring
        self.opener = opener
    }

    var latencyFrames: Int64 { 0 }

    func start() throws {
        running.store(true, ordering: .releasing)
        let thread = Thread { [self] in
            let channels = format.channels
            var chunk = [Float](repeating: 0, count: 256 * channels)
            while running.load(ordering: .acquiring) {
                // Whole chunks when it can: starved of CPU, taking a few frames at a time would
                // only spin against the decoder thread (at the end, the wait times out).
                if ring.availableFrames < 256 { ring.waitForData(frames: 256, timeout: 0.05) }
                let frames = chunk.withUnsafeMutableBufferPointer { ring.read(into: $0.baseAddress!, frames: 256) }
                if frames == 0 {
                    ring.waitForData(frames: 256, timeout: 0.05)
                    continue
                }
                let position = opener.engine.withLock { $0?.position }
                let total = opener.heard.withLock { heard in
                    for frame in 0..<frames { heard.append(chunk[frame * channels]) }
                    return heard.count
                }
                if let position { opener.positions.withLock { $0.append((total, position)) } }
            }
            stopped.signal()
        }
        thread.start()
    }

    func stop() throws {
        halt()
        // Stopped even when paused: the engine drops the ring's rest now.
        let heard = opener.heard.withLock { $0.count }
        opener.stops.withLock { $0.append(heard) }
    }

    /// Ends the pulling thread; what the ring holds stays for `start`.
    private func halt() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        ring.wakeConsumerNow()
        stopped.wait()
    }

    func pause() throws { halt() }
    func resume() throws { try start() }

    func drain() throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while ring.availableFrames > 0, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.005) }
        try stop()
    }

    func close() { try? stop() }
}
