import Foundation
import Synchronization

/// Plays a list of media items in order through one sink. Commands may come from any thread; they
/// are queued for the engine's own decoder thread, which owns the decoder and the sink. What
/// happens is published on `events`.
///
/// Pipeline: decoder thread: read -> skip silence (when on) -> speed (libsonic, when not 1) -> format conversion (channels,
/// libsoxr) when the sink runs at another format -> volume (when not 100 %) -> ring buffer -> the
/// sink's own thread pulls.
public final class PlaybackEngine: Sendable {
    private let core: EngineCore
    /// What happens, in order. Empty (finished at once) when the engine was made with `onEvent`.
    public let events: AsyncStream<PlaybackEvent>

    /// `onEvent`: called with each event on the decoder thread as it happens, instead of
    /// publishing it on `events` (the player controller, which forwards it to its owner's queue
    /// without a task in between: an event is queued by the time the decoder thread rests, which
    /// is what lets a test's clock step in lockstep with it). It must not block.
    ///
    /// `ahead`: how much audio is decoded ahead of the output (`.listening` unless nobody listens).
    public init(decoders: any DecoderOpener, sinks: any SinkOpener, ahead: AudioAhead = .listening,
                onEvent: (@Sendable (PlaybackEvent) -> Void)? = nil) {
        let (events, stream) = AsyncStream.makeStream(of: PlaybackEvent.self, bufferingPolicy: .bufferingNewest(1024))
        self.events = events
        if onEvent != nil { stream.finish() }
        core = EngineCore(emit: EventEmitter(stream: stream, handler: onEvent))
        // The thread owns the core, not the engine: it outlives the engine until it has handled
        // the shutdown that the engine's deinit sends.
        let producer = Producer(core: core, decoders: decoders, sinks: sinks, ahead: ahead)
        let thread = Thread { producer.run() }
        thread.name = "abplayer-decoder"
        thread.start()
    }

    deinit { core.send(.shutdown) }

    // MARK: Commands

    /// Replaces the play list. Playback starts at `start` when `play` is true, and stops after
    /// the frame before `end` when given.
    public func load(
        _ items: [String], start: PlaybackPosition = PlaybackPosition(item: 0, frame: 0),
        end: PlaybackPosition? = nil, play: Bool = true
    ) {
        core.send(.load(items: items, start: start, end: end, play: play))
    }

    /// Replaces the play list with a longer or reordered one without interrupting what is heard:
    /// the item playing goes on from the same frame, wherever `renumbering` puts it, and the
    /// items that joined play when the order gets to them. `order` (numbered as `items`)
    /// replaces the play order at the same moment; nil renumbers the one set. Announced by
    /// `.itemsReplaced`; ignored when `renumbering` is not from the list loaded.
    public func replaceItems(_ items: [String], renumbering: ItemRenumbering, order: ItemOrder? = nil) {
        core.send(.replaceItems(items: items, renumbering: renumbering, order: order))
    }

    public func play() { core.send(.play) }
    public func pause() { core.send(.pause) }
    public func toggle() { core.send(.toggle) }
    public func stop() { core.send(.stop) }
    public func seek(to position: PlaybackPosition) { core.send(.seek(position)) }
    /// Continues on another output from the frame being heard now (also while paused, or while
    /// waiting for a lost output).
    public func setOutput(_ sinks: any SinkOpener) { core.send(.setOutput(sinks)) }

    /// The speeds `setSpeed` accepts: half to four times, the pitch kept.
    public static let speedRange = 0.5...4.0
    /// The volumes `setVolume` accepts, in percent; above 100 the signal may clip.
    public static let volumeRange = 0.0...150.0

    /// Plays faster or slower with the pitch kept (libsonic), clamped to `speedRange`; a value
    /// that is not a number is ignored. Heard within the output buffer's latency; positions stay
    /// source frames. 1 bypasses the stretch (bit-exact).
    public func setSpeed(_ speed: Double) {
        guard !speed.isNaN else { return }
        let clamped = min(max(speed, Self.speedRange.lowerBound), Self.speedRange.upperBound)
        core.shared.withLock { $0.requestedSpeed = clamped }
        core.send(.setSpeed(clamped))
    }

    /// The output gain in percent, clamped to `volumeRange`; changed with a 15 ms ramp. A value
    /// that is not a number is ignored.
    public func setVolume(_ percent: Double) {
        guard !percent.isNaN else { return }
        let clamped = min(max(percent, Self.volumeRange.lowerBound), Self.volumeRange.upperBound)
        core.shared.withLock { $0.volume = clamped }
        core.send(.setVolume(clamped))
    }

    /// Skip silence: long silences shortened to a short pause (`SilenceSkipping`), before the
    /// speed stage; nil turns it off. Positions stay source frames: a cut is a jump of the
    /// source, and each is reported as `.silenceSkipped`.
    public func setSilenceSkipping(_ skipping: SilenceSkipping?) {
        core.shared.withLock { $0.silenceSkipping = skipping }
        core.send(.setSilenceSkipping(skipping))
    }

    /// The book's integrated loudness in LUFS, when measured: the silence threshold is then
    /// relative to it rather than to the level estimated from the audio heard. Nil forgets it.
    public func setReferenceLoudness(_ lufs: Double?) {
        core.send(.setReferenceLoudness(lufs.flatMap { $0.isFinite ? $0 : nil }))
    }

    /// The gain that evens out the book's loudness, in dB (0: none), on top of the volume; heard
    /// with a half-second ramp. Over 0 dB, or with the volume over 100 %, a limiter keeps the
    /// output under -1 dBTP. A value that is not a number is ignored.
    public func setLoudnessGain(decibels: Double) {
        guard decibels.isFinite else { return }
        core.shared.withLock { $0.loudnessGainDecibels = decibels }
        core.send(.setLoudnessGain(Float(pow(10, decibels / 20))))
    }

    /// Fades the output to silence over `seconds` (through the volume stage, after the speed
    /// stage: wall time), then pauses where the silence is heard and restores the volume for
    /// the next play; reported as `.fadedOut`. Play, toggle, pause, stop or `cancelFade` during
    /// the fade cancel it (`.fadeCancelled`). Ignored unless playing.
    public func fadeOut(seconds: Double) { core.send(.fadeOut(seconds: seconds)) }

    /// Pauses by itself exactly at `point` (frame-accurate: decoding stops there), fading out
    /// over the last `fadeSeconds` of wall time before it; reported as `.fadedOut`. Nil drops it.
    public func setPausePoint(_ point: PausePoint?, fadeSeconds: Double) {
        core.send(.setPausePoint(point, fadeSeconds: fadeSeconds))
    }

    /// Drops a fade under way and a pause point, and restores the volume.
    public func cancelFade() { core.send(.cancelFade) }

    /// Which item follows the one that ends (repeat, shuffle); `.inOrder` until set.
    public func setOrder(_ order: ItemOrder) { core.send(.setOrder(order)) }

    /// Leaves out the start and end of every item (`ItemTrim`) from what is decoded next: an
    /// item opened at its top starts after the intro, decoding stops before the outro, and a
    /// seek into either lands where the audible part starts (into the outro: the next item's).
    /// Each skip is reported as `.trimmed`. `.none` until set.
    public func setItemTrim(_ trim: ItemTrim) { core.send(.setItemTrim(trim)) }

    /// Stops playback and ends the decoder thread; the engine is unusable afterwards.
    public func shutdown() { core.send(.shutdown) }

    // MARK: Queries

    public var state: PlaybackState { core.shared.withLock { $0.state } }

    /// Whether commands sent are still queued or being handled on the decoder thread (a test
    /// on its own clock waits for them before it moves the time on).
    public var isHandlingCommands: Bool { core.isHandlingCommands }

    /// The speed last asked for (1 until `setSpeed`).
    public var speed: Double { core.shared.withLock { $0.requestedSpeed } }
    /// The volume last asked for, in percent (100 until `setVolume`).
    public var volume: Double { core.shared.withLock { $0.volume } }
    /// The loudness gain last asked for, in dB (0 until `setLoudnessGain`).
    public var loudnessGainDecibels: Double { core.shared.withLock { $0.loudnessGainDecibels } }
    /// Skip silence as last asked for (nil: off).
    public var silenceSkipping: SilenceSkipping? { core.shared.withLock { $0.silenceSkipping } }

    /// The frame being heard now: what the sink has taken, less its latency, mapped back to the
    /// source. Nil before anything was loaded.
    public var position: PlaybackPosition? { core.position }

    /// `position`, and how many `replaceItems` the engine has taken when it was read: the item
    /// is numbered as that many replacements number it (the caller may have sent more, not yet
    /// taken). Nil before anything was loaded.
    public var numberedPosition: (position: PlaybackPosition, itemListsReplaced: Int)? {
        core.numberedPosition
    }
}

/// What the engine's callers and its decoder thread share.
final class EngineCore: Sendable {
    enum Command: Sendable {
        case load(items: [String], start: PlaybackPosition, end: PlaybackPosition?, play: Bool)
        case play, pause, toggle, stop
        case seek(PlaybackPosition)
        case setSpeed(Double)
        /// Linear, on top of the volume.
        case setLoudnessGain(Float)
        case setVolume(Double)
        case setSilenceSkipping(SilenceSkipping?)
        case setReferenceLoudness(Double?)
        case setOutput(any SinkOpener)
        case fadeOut(seconds: Double)
        case setPausePoint(PausePoint?, fadeSeconds: Double)
        case cancelFade
        case setOrder(ItemOrder)
        case setItemTrim(ItemTrim)
        case replaceItems(items: [String], renumbering: ItemRenumbering, order: ItemOrder?)
        case sinkStatus(SinkStatus, generation: Int)
        case shutdown
    }

    struct Shared {
        var commands: [Command] = []
        /// Commands sent, and those the decoder thread has finished handling.
        var commandsSent = 0
        var commandsHandled = 0
        var state = PlaybackState.stopped
        var clock = PositionClock()
        var ring: RingBuffer?
        var latencyFrames = 0
        var lastPosition: PlaybackPosition?
        /// As asked by the caller (the decoder thread applies them in order).
        var requestedSpeed = 1.0
        var volume = 100.0
        var loudnessGainDecibels = 0.0
        var silenceSkipping: SilenceSkipping?
        /// How many `replaceItems` the decoder thread has taken (the clock's numbering).
        var itemListsReplaced = 0
    }

    let shared = Mutex(Shared())
    /// Wakes the decoder thread when it sleeps without a ring buffer to wait on.
    let commandSignal = DispatchSemaphore(value: 0)
    let emit: EventEmitter

    init(emit: EventEmitter) { self.emit = emit }

    /// The oldest command not yet handled. The rest stay queued, where a write waiting for the
    /// sink can see them (`hasCommandEndingTheAudio`).
    func takeCommand() -> Command? {
        shared.withLock { shared in shared.commands.isEmpty ? nil : shared.commands.removeFirst() }
    }

    /// Whether a queued command makes what the ring is being given moot: it stops, pauses,
    /// moves or replaces the audio, reports the output of `generation` (lost or moved), or ends
    /// the engine. A write waiting for room gives up for these: the sink may never take more.
    func hasCommandEndingTheAudio(outputGeneration generation: Int) -> Bool {
        shared.withLock { shared in
            shared.commands.contains { command in
                switch command {
                case .load, .pause, .toggle, .stop, .seek, .setOutput, .shutdown: true
                case .sinkStatus(.restored, _): false
                case let .sinkStatus(_, sent): sent == generation
                case .play, .setSpeed, .setVolume, .setLoudnessGain, .setSilenceSkipping, .setReferenceLoudness, .fadeOut, .setPausePoint, .cancelFade, .setOrder, .setItemTrim, .replaceItems: false
                }
            }
        }
    }

    func send(_ command: Command) {
        let ring = shared.withLock { shared in
            shared.commands.append(command)
            shared.commandsSent += 1
            return shared.ring
        }
        ring?.wake()
        commandSignal.signal()
    }

    var position: PlaybackPosition? { numberedPosition?.position }

    /// The decoder thread finished handling a command taken with `takeCommand`.
    func commandHandled() { shared.withLock { $0.commandsHandled += 1 } }

    var isHandlingCommands: Bool { shared.withLock { $0.commandsHandled < $0.commandsSent } }

    var numberedPosition: (position: PlaybackPosition, itemListsReplaced: Int)? {
        shared.withLock { shared in
            let position: PlaybackPosition?
            if let ring = shared.ring {
                let heard = max(0, ring.framesRead - shared.latencyFrames)
                position = shared.clock.position(atOutputFrame: heard) ?? shared.lastPosition
            } else {
                position = shared.lastPosition
            }
            return position.map { ($0, shared.itemListsReplaced) }
        }
    }
}

/// Where the engine's events go: its `events` stream, or the handler it was made with.
struct EventEmitter: Sendable {
    let stream: AsyncStream<PlaybackEvent>.Continuation
    let handler: (@Sendable (PlaybackEvent) -> Void)?

    func yield(_ event: PlaybackEvent) {
        if let handler { handler(event) } else { stream.yield(event) }
    }

    func finish() { stream.finish() }
}
