@testable import Console
import Foundation
import Testing

@Suite struct PlaybackCommandTests {
    func parse(_ line: String) throws -> Command {
        try Command(words: try #require(try Tokenizer.commands(in: line).first))
    }

    func failure(_ line: String) -> String? {
        do {
            _ = try parse(line)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func sleepForms() throws {
        #expect(try parse("sleep") == .sleep(.show))
        #expect(try parse("sleep 30m") == .sleep(.duration(1800)))
        #expect(try parse("sleep 1:15:00") == .sleep(.duration(4500)))
        #expect(try parse("sleep +5m") == .sleep(.extend(300)))
        #expect(try parse("sleep chapter") == .sleep(.endOfChapter))
        #expect(try parse("sleep item") == .sleep(.endOfItem))
        #expect(try parse("sleep off") == .sleep(.off))
        #expect(try parse("sleep cycle") == .sleep(.cycle))
        #expect(failure("sleep soon")?.contains("'soon' is not a time") == true)
        #expect(failure("sleep 0") != nil)
        #expect(failure("sleep 5m 10m")?.hasPrefix("usage: sleep") == true)
    }

    @Test func queueForms() throws {
        #expect(try parse("queue") == .queue(.list))
        #expect(try parse("queue add The Hobbit") == .queue(.add("The Hobbit")))
        #expect(try parse("queue mv 3 1") == .queue(.move(from: 3, to: 1)))
        #expect(try parse("queue rm 2") == .queue(.remove(2)))
        #expect(try parse("queue clear") == .queue(.clear))
        #expect(failure("queue rm 0")?.contains("'0' is not a place") == true)
        #expect(failure("queue mv 1")?.contains("usage: queue mv I J") == true)
        #expect(failure("queue shuffle")?.contains("unknown 'shuffle'") == true)
        #expect(failure("queue add") == "usage: queue add BOOK")
    }

    @Test func repeatShuffleRewindForms() throws {
        #expect(try parse("repeat") == .playbackMode(.repeatMode(nil)))
        #expect(try parse("repeat item") == .playbackMode(.repeatMode("item")))
        #expect(try parse("shuffle on") == .playbackMode(.shuffle(true)))
        #expect(try parse("shuffle off") == .playbackMode(.shuffle(false)))
        #expect(try parse("rewind auto") == .playbackMode(.rewind(.auto)))
        #expect(try parse("rewind off") == .playbackMode(.rewind(.off)))
        #expect(try parse("rewind 20") == .playbackMode(.rewind(.max(20))))
        #expect(failure("repeat twice")?.contains("use off, item or book") == true)
        #expect(failure("shuffle maybe") != nil)
        #expect(failure("rewind 9999")?.contains("1-600") == true)
        // and help knows them
        for name in ["sleep", "queue", "repeat", "shuffle", "rewind"] { #expect(CommandHelp.named(name) != nil) }
    }

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
