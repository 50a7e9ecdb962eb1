import Dispatch
import Synchronization

/// The time the player's timers run on: the sleep timer's countdown and its wake-up, how long a
/// book was paused (auto-rewind), how often the place is saved, how long a listening session ran.
/// Injected, so that a test drives it (`ManualClock`, as GStreamer's GstTestClock and ExoPlayer's
/// FakeClock) and a 20-minute timer runs in milliseconds; the running program uses `MonotonicClock`.
///
/// Times are durations since the clock's own origin: nothing compares them across clocks.
public protocol PlayerClock: Sendable {
    /// The time now, since the clock's origin. Never goes back.
    var now: Duration { get }
    /// Calls `action` once, as soon as `now` reaches `deadline` (at once when it has), on a thread
    /// of the clock's choosing, unless the alarm is cancelled first.
    func schedule(at deadline: Duration, _ action: @escaping @Sendable () -> Void) -> ClockAlarm
}

extension PlayerClock {
    /// Calls `action` once `delay` has passed from now.
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> ClockAlarm {
        schedule(at: now + max(.zero, delay), action)
    }
}

/// A scheduled call of a `PlayerClock`. Cancelling it after it rang does nothing.
public final class ClockAlarm: Sendable {
    private let cancelled = Atomic<Bool>(false)
    private let onCancel: @Sendable () -> Void

    init(onCancel: @escaping @Sendable () -> Void = {}) { self.onCancel = onCancel }

    public func cancel() {
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        onCancel()
    }

    public var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Rings `action` unless cancelled; only the first ring counts.
    func ring(_ action: @Sendable () -> Void) {
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        action()
    }
}

/// The system's monotonic clock (CLOCK_MONOTONIC: it does not jump with the wall clock and keeps
/// counting while the machine sleeps no more than the sleep timer should).
public struct MonotonicClock: PlayerClock {
    private let origin = ContinuousClock.now

    public init() {}

    public var now: Duration { origin.duration(to: .now) }

    public func schedule(at deadline: Duration, _ action: @escaping @Sendable () -> Void) -> ClockAlarm {
        let alarm = ClockAlarm()
        let delay = max(.zero, deadline - now)
        let nanoseconds = Int(saturating: delay / .nanoseconds(1))
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { alarm.ring(action) }
        return alarm
    }
}

extension Duration {
    /// The duration in seconds, for arithmetic with rates and Foundation's intervals.
    public var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) / 1e18
    }
}
