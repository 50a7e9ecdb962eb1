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
        // A bare number is minutes, as every audiobook app's timer counts; seconds say so
        #expect(try parse("sleep 20") == .sleep(.duration(1200)))
        #expect(try parse("sleep 1.5") == .sleep(.duration(90)))
        #expect(try parse("sleep 45s") == .sleep(.duration(45)))
        #expect(try parse("sleep +5") == .sleep(.extend(300)))
        #expect(try parse("sleep 1h30m") == .sleep(.duration(5400)))
        #expect(failure("sleep 0") == "sleep: '0' is out of range: use minutes (30) or a time from 1s to 24h; or chapter, item, off, cycle")
        #expect(failure("sleep 1441") == "sleep: '1441' is out of range: use minutes (30) or a time from 1s to 24h; or chapter, item, off, cycle")
        #expect(failure("sleep 25h")?.hasPrefix("sleep: '25h' is out of range: use a time from 1s to 24h") == true)
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
        #expect(try parse("repeat item") == .playbackMode(.repeatMode(.item)))
        #expect(try parse("shuffle on") == .playbackMode(.shuffle(true)))
        #expect(try parse("shuffle off") == .playbackMode(.shuffle(false)))
        #expect(try parse("rewind auto") == .playbackMode(.rewind(.auto)))
        #expect(try parse("rewind off") == .playbackMode(.rewind(.off)))
        #expect(try parse("rewind 20") == .playbackMode(.rewind(.max(20))))
        #expect(failure("repeat twice")?.contains("use off, item or book") == true)
        #expect(failure("shuffle maybe") != nil)
        #expect(failure("rewind 9999")?.contains("'9999' is out of range: use a time from 1s to 10m") == true)
        #expect(try parse("rewind 1m") == .playbackMode(.rewind(.max(60))))
        // and help knows them
        for name in ["sleep", "queue", "repeat", "shuffle", "rewind"] { #expect(CommandHelp.named(name) != nil) }
    }
}
