@testable import PlayerCore
import Testing

/// What the listener is told about the place heard.
@Suite struct PositionReporterTests {
    static func info(_ index: Int, rate: Int) -> ItemInfo {
        ItemInfo(index: index, path: "/book/\(index).mp3",
                 stream: StreamInfo(format: AudioFormat(rate: rate, channels: 2), totalFrames: nil, isSeekable: true),
                 metadata: MediaMetadata())
    }

    /// The events `body` publishes, as short strings.
    static func events(_ body: (EventEmitter) -> Void) async -> [String] {
        let (stream, emit) = AsyncStream.makeStream(of: PlaybackEvent.self)
        body(EventEmitter(stream: emit, handler: nil))
        emit.finish()
        var events: [String] = []
        for await event in stream {
            switch event {
            case let .itemChanged(info): events.append("item \(info.index)")
            case let .position(heard): events.append("\(heard.item):\(heard.frame)")
            default: events.append("other")
            }
        }
        return events
    }

    @Test func anItemIsAnnouncedOnceWhenHeardAndPositionsEveryTenthOfASecond() async {
        // Given two items opened ahead of what is heard, on a 48 kHz sink
        let events = await Self.events { emit in
            var reporter = PositionReporter()
            reporter.opened(Self.info(0, rate: 44100))
            reporter.opened(Self.info(1, rate: 44100))
            // When the heard place moves through item 0 (a tenth of a second is 4800 frames
            // once the item is announced), one report forced, then into item 1
            for frame: Int64 in [0, 2000, 4799, 4800, 9000, 9600] {
                reporter.report(PlaybackPosition(item: 0, frame: frame), force: false, sinkRate: 48000, to: emit)
            }
            reporter.report(PlaybackPosition(item: 0, frame: 9601), force: true, sinkRate: 48000, to: emit)
            reporter.report(PlaybackPosition(item: 1, frame: 0), force: false, sinkRate: 48000, to: emit)
            reporter.report(PlaybackPosition(item: 1, frame: 100), force: false, sinkRate: 48000, to: emit)
            // and item 0 is heard again without being opened again: it is not announced again
            reporter.report(PlaybackPosition(item: 0, frame: 0), force: false, sinkRate: 48000, to: emit)
        }
        // Then each item is announced just before its first position, and positions come a
        // tenth of a second apart unless forced or in another item
        #expect(events == ["item 0", "0:0", "0:4800", "0:9600", "0:9601", "item 1", "1:0", "0:0"])
    }
}
