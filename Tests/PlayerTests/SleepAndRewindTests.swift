import Foundation
import PlayerCore
import Synchronization
@testable import Player
import Testing

@Suite struct SleepAndRewindTests {
    @Test func autoRewindGrowsWithThePauseLinearlyInLogTime() {
        func back(_ pause: Double) -> Double { AutoRewind.seconds(pausedFor: pause, maxSeconds: 30) }
        // Nothing under 10 s
        #expect(back(0) == 0)
        #expect(back(9.9) == 0)
        #expect(back(10) == 0)
        // nor a rewind too short to hear (it would only be said: "rewound 0.0 s")
        #expect(back(10.1) == 0)
        #expect(back(10.3) > 0.1)
        // then growing: each tenfold pause adds the same amount
        #expect(abs(back(12) - 30 * log(1.2) / log(360)) < 1e-9)
        #expect(abs((back(600) - back(60)) - (back(1000) - back(100))) < 1e-9)
        #expect(back(60) < back(600))
        // the most at an hour, and never more
        #expect(abs(back(3600) - 30) < 1e-9)
        #expect(back(86400) == 30)
        #expect(AutoRewind.seconds(pausedFor: 86400, maxSeconds: 20) == 20)
    }

    @Test func aTimedSleepCountsDownOnlyWhilePlaying() {
        // Given a 60 s timer set while paused, on the test's clock
        let clock = ManualClock()
        var timer = SleepTimer(clock: clock)
        timer.set(.duration(set: 60), seconds: 60, playing: false)
        // When an hour passes while paused, nothing is used up
        clock.advance(by: .seconds(3600))
        #expect(timer.remaining() == .seconds(60))
        #expect(timer.description == "1:00 left")
        // When it plays for 20.5 s, exactly that is used up
        timer.playing(true)
        clock.advance(by: .milliseconds(20500))
        timer.playing(false)
        #expect(timer.remaining() == .milliseconds(39500))
        #expect(timer.description == "0:40 left", "rounded up")
        // and pausing again stops the count
        clock.advance(by: .seconds(100))
        #expect(timer.remaining() == .milliseconds(39500))
        // +5m adds to what is left
        timer.extend(by: 300, playing: false)
        #expect(timer.remaining() == .milliseconds(339_500))
        // and playing past the end leaves nothing, never less
        timer.playing(true)
        clock.advance(by: .seconds(400))
        #expect(timer.remaining() == .zero)
    }

    @Test func theTestClockRingsAlarmsInDeadlineOrderAtTheirOwnTime() {
        // Given alarms at 3 s and 1 s, one at 2 s that schedules another 0.5 s after it rang,
        // and one cancelled
        let clock = ManualClock()
        final class Rings: Sendable { let seen = Mutex<[(String, Duration)]>([]) }
        let rang = Rings()
        @Sendable func note(_ name: String) -> @Sendable () -> Void { { rang.seen.withLock { $0.append((name, clock.now)) } } }
        _ = clock.schedule(at: .seconds(3), note("three"))
        _ = clock.schedule(at: .seconds(1), note("one"))
        _ = clock.schedule(at: .seconds(2)) {
            note("two")()
            _ = clock.schedule(after: .milliseconds(500), note("two and a half"))
        }
        let cancelled = clock.schedule(at: .milliseconds(1500), note("cancelled"))
        cancelled.cancel()
        // When the clock moves 2.9 s
        clock.advance(by: .milliseconds(2900))
        // Then each due alarm rang once, in order, with the time at its deadline while it rang
        let seen = rang.seen.withLock { $0 }
        #expect(seen.map(\.0) == ["one", "two", "two and a half"])
        #expect(seen.map(\.1) == [.seconds(1), .seconds(2), .milliseconds(2500)])
        #expect(clock.now == .milliseconds(2900))
        #expect(clock.nextDeadline == .seconds(3))
    }
}
