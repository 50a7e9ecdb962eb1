@testable import PlayerCore
import Testing

@Suite struct PositionClockTests {
    @Test func mapsTheOutputClockBackAcrossItemsAndSeeks() {
        var clock = PositionClock()
        // Item 0 from frame 1000, then item 1 starts after 500 output frames
        clock.reset(outputFrame: 0, at: PlaybackPosition(item: 0, frame: 1000))
        clock.mark(outputFrame: 500, at: PlaybackPosition(item: 1, frame: 0))
        #expect(clock.position(atOutputFrame: 0) == PlaybackPosition(item: 0, frame: 1000))
        #expect(clock.position(atOutputFrame: 499) == PlaybackPosition(item: 0, frame: 1499))
        #expect(clock.position(atOutputFrame: 700) == PlaybackPosition(item: 1, frame: 200))
        // A seek resets the clock at the output frame where the new audio starts
        clock.reset(outputFrame: 900, at: PlaybackPosition(item: 0, frame: 50))
        #expect(clock.position(atOutputFrame: 850) == PlaybackPosition(item: 0, frame: 50))
        #expect(clock.position(atOutputFrame: 1000) == PlaybackPosition(item: 0, frame: 150))
    }
}
