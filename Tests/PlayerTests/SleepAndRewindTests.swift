import Foundation
@testable import Player
import Testing

@Suite struct SleepAndRewindTests {
    @Test func autoRewindGrowsWithThePauseLinearlyInLogTime() {
        func back(_ pause: Double) -> Double { AutoRewind.seconds(pausedFor: pause, maxSeconds: 30) }
        // Nothing under 10 s
        #expect(back(0) == 0)
        #expect(back(9.9) == 0)
        #expect(back(10) == 0)
        // then growing: each tenfold pause adds the same amount
        #expect(abs(back(12) - 30 * log(1.2) / log(360)) < 1e-9)
        #expect(abs((back(600) - back(60)) - (back(100) - back(10.000001))) < 1e-3)
        #expect(back(60) < back(600))
        // the most at an hour, and never more
        #expect(abs(back(3600) - 30) < 1e-9)
        #expect(back(86400) == 30)
        #expect(AutoRewind.seconds(pausedFor: 86400, maxSeconds: 20) == 20)
    }

    @Test func aTimedSleepCountsDownOnlyWhilePlaying() {
        // Given a 60 s timer set while paused
        var timer = SleepTimer()
        timer.set(.duration(set: 60), seconds: 60, playing: false)
        let clock = ContinuousClock()
        // When time passes while paused, nothing is used up
        Thread.sleep(forTimeInterval: 0.2)
        #expect(timer.remaining() == .seconds(60))
        #expect(timer.description == "1:00 left")
        // When it plays for a while, what passed (measured) is used up
        let start = clock.now
        timer.playing(true)
        Thread.sleep(forTimeInterval: 0.3)
        timer.playing(false)
        let played = start.duration(to: clock.now)
        let used = Duration.seconds(60) - timer.remaining()
        #expect(used > .milliseconds(250) && used <= played, "used \(used), played \(played)")
        // and pausing again stops the count
        let left = timer.remaining()
        Thread.sleep(forTimeInterval: 0.1)
        #expect(timer.remaining() == left)
        // +5m adds to what is left
        timer.extend(by: 300, playing: false)
        #expect(timer.remaining() == left + .seconds(300))
    }
}
