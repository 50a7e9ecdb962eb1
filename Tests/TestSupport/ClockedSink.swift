import Dispatch
public import PlayerCore
import Synchronization

/// The tests' output: it takes audio only when the test says so (`ClockedOutput.pull`), never on
/// a thread or a clock of its own, as GStreamer's GstTestClock and ExoPlayer's FakeClock drive
/// theirs. Together with a `ManualClock`, "play 5 s" takes exactly 5 s of frames at whatever speed
/// the machine runs, and the audio is still checked as audio (what was taken is kept).
///
/// Built for the tests and never installed: it is a `Sink` in the test process, opened through
/// `ClockedOutput` (a `SinkOpener`), not a plugin the player could find.
public final class ClockedSink: Sink, Sendable {
    public let format: AudioFormat
    public let name = "clocked"
    let ring: RingBuffer
    private let output: ClockedOutput

    enum Run: Equatable {
        case stopped, running, paused, draining, closed
    }

    let run = Mutex(Run.stopped)
    /// Signalled when a drain is over: the test took the last frame, or the sink was stopped,
    /// closed or let go.
    private let drained = DispatchSemaphore(value: 0)

    init(format: AudioFormat, ring: RingBuffer, output: ClockedOutput) {
        self.format = format
        self.ring = ring
        self.output = output
    }

    public var latencyFrames: Int64 { 0 }

    public func start() throws { run.withLock { $0 = .running } }
    public func resume() throws { run.withLock { if $0 == .paused || $0 == .stopped { $0 = .running } } }
    public func pause() throws { run.withLock { if $0 == .running { $0 = .paused } } }

    public func stop() throws {
        end(as: .stopped)
        output.noteStop()
    }

    public func close() { end(as: .closed) }

    /// Blocks the engine's thread until the test has taken everything the ring holds (or the
    /// output was let go: then at once).
    public func drain() throws {
        let draining = run.withLock { run in
            guard run == .running || run == .paused, !output.isLetGo else { return false }
            run = .draining
            return true
        }
        guard draining else { return }
        drained.wait()
    }

    /// Leaves `run` as `state`, releasing a drain under way.
    func end(as state: Run) {
        let wasDraining = run.withLock { run in
            defer { run = state }
            return run == .draining
        }
        if wasDraining { drained.signal() }
    }

    /// Takes up to `frames` frames into `buffer` (interleaved), waiting for the engine to make
    /// them when it still plays. Fewer when it paused, stopped or ran dry at a drain.
    func take(_ frames: Int, into buffer: UnsafeMutablePointer<Float>, deadline: ContinuousClock.Instant) -> Int {
        var taken = 0
        while taken < frames {
            let state = run.withLock { $0 }
            guard state == .running || state == .draining else { break }
            let count = ring.read(into: buffer + taken * format.channels, frames: frames - taken)
            taken += count
            if count > 0 { continue }
            if state == .draining {
                end(as: .stopped)
                break
            }
            if ContinuousClock.now >= deadline { break }
            // The producer rests until woken or 0.2 s pass: wake it to fill what was taken.
            ring.wake()
            ring.waitForData(frames: min(frames - taken, ring.capacityFrames / 2), timeout: 0.01)
        }
        return taken
    }

    /// After a take: wakes the producer and waits until it has come back to rest, so that what
    /// the take made due (a report, a pause at a faded end, a drain) has happened.
    func settle(deadline: ContinuousClock.Instant) {
        let rests = ring.producerRests
        ring.wake()
        while ring.producerRests == rests, ContinuousClock.now < deadline {
            guard run.withLock({ $0 == .running }) else { return }
            ring.waitForData(frames: ring.capacityFrames, timeout: 0.0005)
        }
    }
}

/// Opens `ClockedSink`s for an engine and keeps, across every sink it opened, what the test took:
/// the first channel of each frame, and where the engine stopped the output (a jump).
public final class ClockedOutput: SinkOpener, Sendable {
    /// The rate every sink runs at (the engine resamples to it); nil: the rate asked for.
    public let rate: Int?
    private let current = Mutex<ClockedSink?>(nil)
    private let heard = Mutex<[Float]>([])
    private let stops = Mutex<[Int]>([])
    private let framesTaken = Atomic<Int>(0)
    private let letGo = Atomic<Bool>(false)
    /// Whether to keep what was heard (a 20-minute test needs only the count).
    public let keepsAudio: Bool

    public init(rate: Int? = nil, keepsAudio: Bool = true) {
        self.rate = rate
        self.keepsAudio = keepsAudio
    }

    public func openSink(format: AudioFormat, source: RingBuffer) throws -> any Sink {
        let sink = ClockedSink(format: AudioFormat(rate: rate ?? format.rate, channels: format.channels), ring: source, output: self)
        current.withLock { $0 = sink }
        return sink
    }

    /// The sink's rate now, when one is open.
    public var sinkRate: Int? { current.withLock { $0?.format.rate } }

    /// Takes `frames` frames from the playing sink, then waits for the engine to have done what
    /// they made due. Returns how many it took: fewer (or none) when the engine paused, stopped,
    /// ended or has no output open.
    @discardableResult
    public func pull(_ frames: Int, within seconds: Double = 60) -> Int {
        guard frames > 0, let sink = current.withLock({ $0 }) else { return 0 }
        let deadline = ContinuousClock.now + .seconds(seconds)
        let channels = sink.format.channels
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: frames * channels)
        defer { buffer.deallocate() }
        let taken = sink.take(frames, into: buffer, deadline: deadline)
        if taken > 0 {
            framesTaken.add(taken, ordering: .relaxed)
            if keepsAudio {
                heard.withLock { heard in
                    for frame in 0..<taken { heard.append(buffer[frame * channels]) }
                }
            }
        }
        sink.settle(deadline: deadline)
        return taken
    }

    /// Waits until `engine` has handled every command sent and, when it plays, this output is
    /// taking audio: what a test on its own clock waits for before it pulls. False at the deadline.
    public func settle(_ engine: PlaybackEngine, within seconds: Double = 60) -> Bool {
        waitUntil(within: seconds, every: 0.001) {
            !engine.isHandlingCommands && (engine.state != .playing || isPlaying)
        }
    }

    /// Whether a sink is open and taking audio.
    public var isPlaying: Bool { current.withLock { $0?.run.withLock { $0 == .running || $0 == .draining } ?? false } }

    /// The first channel of everything taken, in order.
    public var audio: [Float] { heard.withLock { $0 } }
    public var frameCount: Int { framesTaken.load(ordering: .relaxed) }
    /// The frame counts at which the engine stopped the output (before a jump).
    public var stopFrames: [Int] { stops.withLock { $0 } }

    func noteStop() {
        let count = framesTaken.load(ordering: .relaxed)
        stops.withLock { $0.append(count) }
    }

    var isLetGo: Bool { letGo.load(ordering: .acquiring) }

    /// The test is over: a drain under way, or any later one, ends at once.
    public func release() {
        letGo.store(true, ordering: .releasing)
        current.withLock { $0 }?.end(as: .stopped)
    }
}
