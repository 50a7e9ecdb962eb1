#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A lock-free single-producer/single-consumer ring of interleaved float frames between the
/// engine's decoder thread (producer) and a sink's audio thread (consumer).
///
/// The counters only grow (total frames ever written and read), so `framesRead` doubles as the
/// output clock that positions are computed from. The consumer side never locks, allocates or
/// touches a Swift object other than this one; each read posts a semaphore (a single atomic add,
/// plus a futex wake only when the producer sleeps) so the producer can sleep instead of poll.
public final class RingBuffer: @unchecked Sendable {
    public let channels: Int
    public let capacityFrames: Int
    private let storage: UnsafeMutablePointer<Float>
    private let written = Atomic<Int>(0)
    private let read = Atomic<Int>(0)
    private let wakeProducer: UnsafeMutablePointer<sem_t>
    private let wakeConsumer: UnsafeMutablePointer<sem_t>
    /// The frames a consumer sleeping in `waitForData` waits for; 0 when none sleeps.
    private let consumerWants = Atomic<Int>(0)
    private let rests = Atomic<Int>(0)

    public init(channels: Int, capacityFrames: Int) {
        precondition(channels > 0 && capacityFrames > 0)
        self.channels = channels
        self.capacityFrames = capacityFrames
        storage = .allocate(capacity: channels * capacityFrames)
        storage.initialize(repeating: 0, count: channels * capacityFrames)
        wakeProducer = .allocate(capacity: 1)
        sem_init(wakeProducer, 0, 0)
        wakeConsumer = .allocate(capacity: 1)
        sem_init(wakeConsumer, 0, 0)
    }

    deinit {
        sem_destroy(wakeProducer)
        wakeProducer.deallocate()
        sem_destroy(wakeConsumer)
        wakeConsumer.deallocate()
        storage.deallocate()
    }

    /// Total frames the consumer has taken since creation: the output clock.
    public var framesRead: Int { read.load(ordering: .acquiring) }
    /// Total frames the producer has put in since creation.
    public var framesWritten: Int { written.load(ordering: .acquiring) }
    public var availableFrames: Int { framesWritten - framesRead }
    public var freeFrames: Int { capacityFrames - availableFrames }

    // MARK: Consumer (real-time thread)

    /// Copies up to `frames` frames into `buffer`; returns how many. Real-time safe.
    public func read(into buffer: UnsafeMutablePointer<Float>, frames: Int) -> Int {
        let start = read.load(ordering: .relaxed)
        let count = min(frames, written.load(ordering: .acquiring) - start)
        guard count > 0 else { return 0 }
        copy(count, from: start, into: buffer)
        read.store(start + count, ordering: .releasing)
        sem_post(wakeProducer)
        return count
    }

    private func copy(_ count: Int, from start: Int, into buffer: UnsafeMutablePointer<Float>) {
        let offset = start % capacityFrames
        let first = min(count, capacityFrames - offset)
        (buffer).update(from: storage + offset * channels, count: first * channels)
        if count > first {
            (buffer + first * channels).update(from: storage, count: (count - first) * channels)
        }
    }

    // MARK: Producer (the engine's decoder thread)

    /// Copies up to `frames` frames from `buffer` into free space; returns how many.
    @discardableResult
    public func write(from buffer: UnsafePointer<Float>, frames: Int) -> Int {
        let end = written.load(ordering: .relaxed)
        let count = min(frames, capacityFrames - (end - read.load(ordering: .acquiring)))
        guard count > 0 else { return 0 }
        let offset = end % capacityFrames
        let first = min(count, capacityFrames - offset)
        (storage + offset * channels).update(from: buffer, count: first * channels)
        if count > first {
            storage.update(from: buffer + first * channels, count: (count - first) * channels)
        }
        written.store(end + count, ordering: .releasing)
        let wanted = consumerWants.load(ordering: .acquiring)
        if wanted > 0, end + count - read.load(ordering: .acquiring) >= wanted,
           consumerWants.compareExchange(expected: wanted, desired: 0, ordering: .acquiringAndReleasing).exchanged {
            sem_post(wakeConsumer)
        }
        return count
    }

    /// Wakes a consumer sleeping in `waitForData` (the producer stopped, drains or changes).
    public func wakeConsumerNow() {
        if consumerWants.exchange(0, ordering: .acquiringAndReleasing) > 0 { sem_post(wakeConsumer) }
    }

    // MARK: Consumer without a clock (a file or null sink)

    /// Sleeps until `frames` frames are ready (at most three quarters of the ring: the producer
    /// rests before the ring is quite full), `wakeConsumerNow()`, or `seconds` pass. Blocks:
    /// only for sinks with no device clock, after an underrun, instead of polling.
    public func waitForData(frames: Int, timeout seconds: Double) {
        let frames = max(1, min(frames, capacityFrames * 3 / 4))
        consumerWants.store(frames, ordering: .releasing)
        // Data written before the wish was published would wake nobody: look once more.
        if availableFrames >= frames {
            consumerWants.store(0, ordering: .releasing)
            return
        }
        var deadline = Self.deadline(after: seconds)
        while sem_timedwait(wakeConsumer, &deadline) == -1 && errno == EINTR {}
        consumerWants.store(0, ordering: .releasing)
    }

    /// Discards everything not yet read. Only while the consumer is stopped.
    public func discardUnread() {
        read.store(written.load(ordering: .acquiring), ordering: .releasing)
    }

    /// How many times the producer has come to rest in `waitForSpace`. A consumer that is also the
    /// clock (the tests' clocked sink) wakes the producer after a pull and waits for this to move:
    /// whatever the pull made happen (a report, a pause at a faded end) has happened by then.
    public var producerRests: Int { rests.load(ordering: .acquiring) }

    /// Sleeps until `wake()` is called or `seconds` pass.
    public func waitForSpace(timeout seconds: Double) {
        rests.add(1, ordering: .acquiringAndReleasing)
        var deadline = Self.deadline(after: seconds)
        while sem_timedwait(wakeProducer, &deadline) == -1 && errno == EINTR {}
    }

    /// Wakes a producer sleeping in `waitForSpace` (a command arrived).
    public func wake() { sem_post(wakeProducer) }

    /// The CLOCK_REALTIME instant `seconds` from now, as sem_timedwait wants it.
    private static func deadline(after seconds: Double) -> timespec {
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)
        let nanoseconds = Int(deadline.tv_nsec) + Int(seconds * 1e9)
        deadline.tv_sec += nanoseconds / 1_000_000_000
        deadline.tv_nsec = nanoseconds % 1_000_000_000
        return deadline
    }
}
