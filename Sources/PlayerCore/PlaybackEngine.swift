import Foundation
import Synchronization

/// Plays a list of media items in order through one sink. Commands may come from any thread; they
/// are queued for the engine's own decoder thread, which owns the decoder and the sink. What
/// happens is published on `events`.
///
/// Pipeline: decoder thread: read -> ring buffer -> the sink's own thread pulls.
public final class PlaybackEngine: Sendable {
    enum Command: Sendable {
        case load(items: [String], start: PlaybackPosition, end: PlaybackPosition?, play: Bool)
        case play, pause, toggle, stop
        case seek(PlaybackPosition)
        case shutdown
    }

    /// State shared between callers and the decoder thread.
    struct Shared {
        var commands: [Command] = []
        var state = PlaybackState.stopped
        var clock = PositionClock()
        var ring: RingBuffer?
        var latencyFrames = 0
        var lastPosition: PlaybackPosition?
        var items: [String] = []
    }

    let shared = Mutex(Shared())
    /// Wakes the decoder thread when it sleeps without a ring buffer to wait on.
    let commandSignal = DispatchSemaphore(value: 0)
    public let events: AsyncStream<PlaybackEvent>
    let emit: AsyncStream<PlaybackEvent>.Continuation

    public init(decoders: any DecoderOpener, sinks: any SinkOpener) {
        (events, emit) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1024))
        let producer = Producer(engine: self, decoders: decoders, sinks: sinks)
        let thread = Thread { producer.run() }
        thread.name = "abplayer-decoder"
        thread.start()
    }

    // MARK: Commands

    /// Replaces the play list. Playback starts at `start` when `play` is true, and stops after
    /// the frame before `end` when given.
    public func load(
        _ items: [String], start: PlaybackPosition = PlaybackPosition(item: 0, frame: 0),
        end: PlaybackPosition? = nil, play: Bool = true
    ) {
        send(.load(items: items, start: start, end: end, play: play))
    }

    public func play() { send(.play) }
    public func pause() { send(.pause) }
    public func toggle() { send(.toggle) }
    public func stop() { send(.stop) }
    public func seek(to position: PlaybackPosition) { send(.seek(position)) }

    /// Stops playback and ends the decoder thread; the engine is unusable afterwards.
    public func shutdown() { send(.shutdown) }

    private func send(_ command: Command) {
        let ring = shared.withLock { shared in
            shared.commands.append(command)
            return shared.ring
        }
        ring?.wake()
        commandSignal.signal()
    }

    // MARK: Queries

    public var state: PlaybackState { shared.withLock { $0.state } }

    /// The frame being heard now: what the sink has taken, less its latency, mapped back to the
    /// source. Nil before anything was loaded.
    public var position: PlaybackPosition? {
        shared.withLock { shared in
            guard let ring = shared.ring else { return shared.lastPosition }
            let heard = max(0, ring.framesRead - shared.latencyFrames)
            return shared.clock.position(atOutputFrame: heard) ?? shared.lastPosition
        }
    }
}
