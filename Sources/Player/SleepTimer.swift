import PlayerCore

/// The sleep timer's setting and, for a duration, its countdown.
///
/// A duration counts down only while the book plays, as in BookPlayer and Smart AudioBook
/// Player: a paused book does not use the timer up. The time is measured with the player's clock
/// (monotonic; the tests' own in tests) between the engine's state changes, never by counting ticks.
struct SleepTimer {
    enum Mode: Equatable {
        case off
        /// Counting down; `set` is the duration asked for (for `cycle`).
        case duration(set: Double)
        case endOfChapter
        case endOfItem
        /// The last seconds: the engine is fading out.
        case fading
    }

    private(set) var mode = Mode.off
    /// What was left when the countdown last stopped or started.
    private var left: Duration = .zero
    private var runningSince: Duration?
    /// Wakes the console when the fade should start; replaced at every change.
    var wakeUp: ClockAlarm?
    /// Wakes the console when a minute is left (`warningSeconds`); replaced with `wakeUp`.
    var warning: ClockAlarm?
    let clock: any PlayerClock
    /// Cancels the console asked the engine for, whose reports are not news.
    var expectedCancels = 0
    /// Tells a stale wake-up from the current one.
    private(set) var generation = 0

    /// How long the fade-out lasts before the timer's end.
    static let fadeSeconds = 10.0
    /// How long before the end the countdown says it is ending (`PlayerNotice.sleepTimerEnding`).
    static let warningSeconds = 60.0
    /// `sleep cycle`'s durations, in minutes.
    static let cycleMinutes = [15.0, 30, 45, 60]

    init(clock: any PlayerClock) { self.clock = clock }

    func remaining() -> Duration { remaining(at: clock.now) }

    private func remaining(at now: Duration) -> Duration {
        guard let runningSince else { return left }
        return max(.zero, left - (now - runningSince))
    }

    var isCounting: Bool { runningSince != nil }

    private static func bounded(_ seconds: Double) -> Double { seconds.isNaN ? 0 : min(max(seconds, 0), longestSeconds) }

    /// The longest a timer runs: past it, `Duration.seconds` would trap on a value a sync journal
    /// or a typo carried (`sleep +99999999999999999999`); a week is no listener's sleep.
    static let longestSeconds = 7 * 86400.0

    mutating func set(_ newMode: Mode, seconds: Double = 0, playing: Bool) {
        mode = newMode
        left = .seconds(Self.bounded(seconds))
        runningSince = playing && isDuration ? clock.now : nil
        replaceWakeUp()
    }

    mutating func extend(by seconds: Double, playing: Bool) {
        let now = clock.now
        left = min(remaining(at: now) + .seconds(Self.bounded(seconds)), .seconds(Self.longestSeconds))
        if case let .duration(set) = mode { mode = .duration(set: set + seconds) } else { mode = .duration(set: seconds) }
        runningSince = playing ? now : nil
        replaceWakeUp()
    }

    /// The book started or stopped playing: the countdown runs only while it plays.
    mutating func playing(_ isPlaying: Bool) {
        guard isDuration else { return }
        let now = clock.now
        if isPlaying, runningSince == nil {
            runningSince = now
        } else if !isPlaying, runningSince != nil {
            left = remaining(at: now)
            runningSince = nil
        }
        replaceWakeUp()
    }

    mutating func startFading() {
        mode = .fading
        runningSince = nil
        replaceWakeUp()
    }

    /// Cancels the pending wake-up; the caller schedules the next one when counting.
    mutating func replaceWakeUp() {
        wakeUp?.cancel()
        wakeUp = nil
        warning?.cancel()
        warning = nil
        generation += 1
    }

    private var isDuration: Bool {
        if case .duration = mode { true } else { false }
    }

    /// Where the timer stands, as `status` reports it; nil when off.
    var state: SleepState? {
        switch mode {
        case .off: nil
        // Rounded up: a timer just set to 30 minutes says 30:00, not 29:59.
        case .duration: .counting(secondsLeft: remaining().seconds.rounded(.up))
        case .endOfChapter: .endOfChapter
        case .endOfItem: .endOfItem
        case .fading: .fading
        }
    }

    /// What `sleep` and `status` say; nil when off.
    var description: String? { state?.text }
}
