import Foundation
import PlayerCore
import Synchronization

/// An output that runs at its own rate (the engine resamples to it) and takes frames from its
/// ring as fast as they come, keeping all it heard and, after each pull, the position the engine
/// reported then (its latency is 0: what it took is what was heard).
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
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        ring.wakeConsumerNow()
        stopped.wait()
    }

    func pause() throws { try stop() }
    func resume() throws { try start() }

    func drain() throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while ring.availableFrames > 0, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.005) }
        try stop()
    }

    func close() { try? stop() }
}
