public import PlayerCore
import Synchronization

/// Something the player tells observers on other threads (MPRIS, `subscribe` on the control
/// socket).
public enum PlayerUpdate: Sendable {
    /// What `status` shows changed in more than the clock: state, book, item, chapter, speed,
    /// volume, output, sleep mode, repeat, shuffle. Nil: no book is loaded any more.
    case changed(Status?)
    /// The position moved by playing (at the engine's position-event rate, a few times a second).
    case position(Status)
    /// The listener jumped: seek, skip, goto, item, chapter, undo, auto-rewind.
    case seeked(Status)
    /// An engine event as it came.
    case engine(PlaybackEvent)
    /// The library's books or shelves changed (a library command edited them, or the library
    /// watch did): a view of the library reads it again.
    case libraryChanged
    /// What a plain-mode client must hear (`Announcement`).
    case announcement(Announcement)
}

/// The player's state for observers on other threads: the last `Status` (read at any time) and
/// a stream of `PlayerUpdate`s per subscriber. Published from the controller's task after every
/// command and event it handles, so observers never touch the controller itself.
public final class PlayerBroadcast: Sendable {
    private struct State {
        var current: Status?
        var nextId = 0
        var subscribers: [Int: AsyncStream<PlayerUpdate>.Continuation] = [:]
        var wantsCoverFiles = false
        var listeners: [@Sendable (ListeningEvent) -> Void] = []
    }

    private let state = Mutex(State())

    public init() {}

    /// The status now; nil when no book is loaded.
    public var current: Status? { state.withLock { $0.current } }

    /// Whether `Status.cover` is filled in (the cover extracted to a file): only when an
    /// observer shows covers, so a player without one never writes them.
    public var wantsCoverFiles: Bool { state.withLock { $0.wantsCoverFiles } }

    /// Asks for `Status.cover` from the next status on.
    public func askForCoverFiles() { state.withLock { $0.wantsCoverFiles = true } }

    /// Events from now on. A slow subscriber loses the oldest ones beyond 1,000, never blocks
    /// the player. The stream ends when the subscriber drops it.
    public func subscribe() -> AsyncStream<PlayerUpdate> {
        let (stream, continuation) = AsyncStream.makeStream(of: PlayerUpdate.self, bufferingPolicy: .bufferingNewest(1000))
        let id = state.withLock { state in
            let id = state.nextId
            state.nextId += 1
            state.subscribers[id] = continuation
            return id
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Hands `listener` every `ListeningEvent` from now on, on the player's task as it happens:
    /// it must only pass the event on to a thread of its own, never block. Not a stream, so
    /// that nothing is left queued when the player stops (the `finished` of a book that ends a
    /// `listen`, the last `paused` of a script still runs its hook).
    public func addListener(_ listener: @escaping @Sendable (ListeningEvent) -> Void) {
        state.withLock { $0.listeners.append(listener) }
    }

    func tellListeners(_ event: ListeningEvent) {
        for listener in state.withLock({ $0.listeners }) { listener(event) }
    }

    /// Tells subscribers what a plain-mode client says (the service's notices and what other
    /// clients did): only the service knows which client's request is running.
    public func announce(_ announcement: Announcement) {
        publish(.announcement(announcement))
    }

    func publish(_ event: PlayerUpdate) {
        for subscriber in state.withLock({ Array($0.subscribers.values) }) { subscriber.yield(event) }
    }

    /// Takes the status after an input: says `changed`, `seeked` or `position` as it differs
    /// from the last one.
    func update(_ status: Status?, jumped: Bool) {
        let previous = state.withLock { state in
            let previous = state.current
            state.current = status
            return previous
        }
        guard let status else {
            if previous != nil { publish(.changed(nil)) }
            return
        }
        if previous.map(\.withoutClock) != status.withoutClock {
            publish(.changed(status))
        }
        if jumped {
            publish(.seeked(status))
        } else if previous?.itemPosition != status.itemPosition || previous?.itemNumber != status.itemNumber {
            publish(.position(status))
        }
    }
}

extension Status {
    /// The status without what changes as time passes (positions, time left, a sleep countdown):
    /// two statuses differing only in these are the same state later.
    var withoutClock: Status {
        var copy = self
        copy.itemPosition = 0
        copy.bookPosition = nil
        copy.timeLeft = nil
        if case .counting = copy.sleep { copy.sleep = .counting(secondsLeft: 0) }
        return copy
    }
}
