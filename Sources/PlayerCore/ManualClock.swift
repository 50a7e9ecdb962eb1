import Synchronization

/// A `PlayerClock` that moves only when told: the tests' clock (shipped as real code, as
/// swift-log ships its test handler, so that every test drives the same one). `advance` rings
/// every alarm that falls due, in deadline order, on the caller's thread before it returns, with
/// `now` at each alarm's deadline while it rings: an alarm that schedules another inside the
/// step rings in the same call.
public final class ManualClock: PlayerClock {
    private struct Pending {
        let deadline: Duration
        let order: Int
        let alarm: ClockAlarm
        let action: @Sendable () -> Void
    }

    private struct State {
        var now: Duration = .zero
        var pending: [Int: Pending] = [:]
        var scheduled = 0
    }

    private let state = Mutex(State())

    public init() {}

    public var now: Duration { state.withLock { $0.now } }

    public func schedule(at deadline: Duration, _ action: @escaping @Sendable () -> Void) -> ClockAlarm {
        let order = state.withLock { state in
            state.scheduled += 1
            return state.scheduled
        }
        let alarm = ClockAlarm { [weak self] in
            _ = self?.state.withLock { $0.pending.removeValue(forKey: order) }
        }
        state.withLock { $0.pending[order] = Pending(deadline: deadline, order: order, alarm: alarm, action: action) }
        return alarm
    }

    /// Moves the time on by `duration`, ringing what falls due on the way.
    public func advance(by duration: Duration) {
        let target = state.withLock { $0.now } + max(.zero, duration)
        while let due = nextDue(by: target) { due.alarm.ring(due.action) }
        state.withLock { $0.now = max($0.now, target) }
    }

    /// The earliest alarm due by `target`, removed, with the time moved to its deadline.
    private func nextDue(by target: Duration) -> Pending? {
        state.withLock { state in
            guard let next = state.pending.values.filter({ $0.deadline <= target })
                .min(by: { ($0.deadline, $0.order) < ($1.deadline, $1.order) }) else { return nil }
            state.pending[next.order] = nil
            state.now = max(state.now, next.deadline)
            return next
        }
    }

    /// When the next alarm rings, if one waits.
    public var nextDeadline: Duration? { state.withLock { $0.pending.values.map(\.deadline).min() } }

    /// How many alarms wait to ring.
    public var pendingAlarms: Int { state.withLock { $0.pending.count } }
}
