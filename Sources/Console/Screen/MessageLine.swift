import PlayerCore

/// A full screen's message line: what the last key's command said (or why it failed), shown for
/// `lifetime` and then gone, so that a confirmation such as `2:47 / 4:40 (59%) · chapter 4/5`
/// does not stand beside bars that have moved on. The time is the screen's clock (the tests'
/// `ManualClock` in tests); when a message expires, `expired` is called once (on the clock's
/// thread) so that the screen is drawn again even when nothing else redraws it (paused).
final class MessageLine {
    static let lifetime: Duration = .seconds(3)

    private let clock: any PlayerClock
    private let expired: @Sendable () -> Void
    private var current: (text: String, shownAt: Duration)?
    private var alarm: ClockAlarm?

    init(clock: any PlayerClock = MonotonicClock(), expired: @escaping @Sendable () -> Void) {
        self.clock = clock
        self.expired = expired
    }

    /// The message to draw now; nil once its lifetime has passed.
    var text: String? {
        guard let current, clock.now - current.shownAt < Self.lifetime else { return nil }
        return current.text
    }

    /// Shows `text` from now on, in place of any message before it.
    func show(_ text: String) {
        current = (text, clock.now)
        alarm?.cancel()
        alarm = clock.schedule(after: Self.lifetime, expired)
    }

    /// No message (a key was pressed: what it says comes next).
    func clear() {
        current = nil
        alarm?.cancel()
        alarm = nil
    }

    deinit { alarm?.cancel() }
}
