@testable import PlayerCore
import Testing

/// Where the engine pauses by itself, decided without a decoder or an output.
@Suite struct AutoPauseTests {
    @Test func decodingStopsExactlyAtAPointInsideAnItemAndPausesThere() {
        // Given a pause point at frame 1000 of item 1
        var pause = AutoPause()
        pause.point = .position(PlaybackPosition(item: 1, frame: 1000))
        // Then reads in item 1 stop at the point, and reads in another item are not limited
        #expect(pause.framesBeforePoint(atMost: 4096, from: PlaybackPosition(item: 1, frame: 200)) == 800)
        #expect(pause.framesBeforePoint(atMost: 4096, from: PlaybackPosition(item: 1, frame: 1000)) == 0)
        #expect(pause.framesBeforePoint(atMost: 4096, from: PlaybackPosition(item: 0, frame: 200)) == 4096)
        // When decoding stops at the end of item 0: that is not the point
        let atItemEnd = pause.decodingStopped(at: PlaybackPosition(item: 0, frame: 5000), next: 1)
        #expect(!atItemEnd)
        #expect(pause.point != nil && pause.target == nil)
        // When it stops at the point: it is used up, and the pause goes there
        let atPoint = pause.decodingStopped(at: PlaybackPosition(item: 1, frame: 1000), next: 2)
        #expect(atPoint)
        #expect(pause.point == nil)
        #expect(pause.target == PlaybackPosition(item: 1, frame: 1000))
    }

    @Test func aPointInAnIntroLeftOutIsReachedWhereTheAudiblePartStarts() {
        // Given a pause point 1000 frames into item 1, whose first 3000 frames are left out
        var pause = AutoPause()
        pause.point = .position(PlaybackPosition(item: 1, frame: 1000))
        // When decoding skips item 0 to frame 3000 (another item), nothing changes
        pause.decodingSkipped(to: PlaybackPosition(item: 0, frame: 3000))
        #expect(pause.point == .position(PlaybackPosition(item: 1, frame: 1000)))
        // When it skips item 1's intro: the point is where decoding goes on, and it pauses there
        pause.decodingSkipped(to: PlaybackPosition(item: 1, frame: 3000))
        #expect(pause.framesBeforePoint(atMost: 4096, from: PlaybackPosition(item: 1, frame: 3000)) == 0)
        let atPoint = pause.decodingStopped(at: PlaybackPosition(item: 1, frame: 3000), next: 2)
        #expect(atPoint)
        #expect(pause.target == PlaybackPosition(item: 1, frame: 3000))
        // and a point after the intro stays where it was
        var later = AutoPause()
        later.point = .position(PlaybackPosition(item: 1, frame: 5000))
        later.decodingSkipped(to: PlaybackPosition(item: 1, frame: 3000))
        #expect(later.point == .position(PlaybackPosition(item: 1, frame: 5000)))
    }

    @Test func aPointAtAnItemsEndPausesAtTheTopOfTheNextOrNowhereAfterTheLast() {
        // Given a pause point at the end of item 1
        var pause = AutoPause()
        pause.point = .endOfItem(1)
        // Then reads are not limited (the item's end stops them)
        #expect(pause.framesBeforePoint(atMost: 4096, from: PlaybackPosition(item: 1, frame: 200)) == 4096)
        // When item 1 ends with item 2 next: the pause is at item 2's top
        let atItemEnd = pause.decodingStopped(at: PlaybackPosition(item: 1, frame: 5000), next: 2)
        #expect(atItemEnd)
        #expect(pause.target == PlaybackPosition(item: 2, frame: 0))
        // When it ends as the last item: the point is used up with nowhere to pause (the book ends)
        var last = AutoPause()
        last.point = .endOfItem(1)
        let atLastEnd = last.decodingStopped(at: PlaybackPosition(item: 1, frame: 5000), next: nil)
        #expect(atLastEnd)
        #expect(last.point == nil && last.target == nil)
    }

    @Test func theFadeBeforeThePointIsDueItsWallTimeAheadAtAnySpeed() {
        // Given a point 10 s into a 48 kHz item, with a 5 s fade before it
        var pause = AutoPause()
        pause.point = .position(PlaybackPosition(item: 0, frame: 480_000))
        pause.fadeSeconds = 5
        // Then at speed 1 it is due 5 s of source before the point, with what is left to go
        #expect(pause.fadeDue(at: PlaybackPosition(item: 0, frame: 239_999), itemFrames: nil, sourceRate: 48000, speed: 1) == nil)
        #expect(pause.fadeDue(at: PlaybackPosition(item: 0, frame: 240_000), itemFrames: nil, sourceRate: 48000, speed: 1) == 240_000)
        // and at speed 2, 10 s of source before it (5 s of wall time)
        #expect(pause.fadeDue(at: PlaybackPosition(item: 0, frame: 0), itemFrames: nil, sourceRate: 48000, speed: 2) == 480_000)
        // and not in another item, nor once a fade is under way
        #expect(pause.fadeDue(at: PlaybackPosition(item: 1, frame: 470_000), itemFrames: nil, sourceRate: 48000, speed: 1) == nil)
        pause.fade = .untilPausePoint
        #expect(pause.fadeDue(at: PlaybackPosition(item: 0, frame: 470_000), itemFrames: nil, sourceRate: 48000, speed: 1) == nil)
    }

    @Test func aPointAtAnItemsEndFadesOnlyWhenTheItemsLengthIsKnown() {
        var pause = AutoPause()
        pause.point = .endOfItem(0)
        pause.fadeSeconds = 1
        #expect(pause.fadeDue(at: PlaybackPosition(item: 0, frame: 90_000), itemFrames: nil, sourceRate: 48000, speed: 1) == nil)
        #expect(pause.fadeDue(at: PlaybackPosition(item: 0, frame: 90_000), itemFrames: 100_000, sourceRate: 48000, speed: 1) == 10_000)
    }

    @Test func cancellingSaysWhetherAnythingWasDropped() {
        var pause = AutoPause()
        let droppedNothing = pause.cancel()
        #expect(!droppedNothing)
        pause.point = .endOfItem(0)
        pause.fade = .untilOutputFrame(100)
        let dropped = pause.cancel()
        #expect(dropped)
        #expect(pause.point == nil && pause.fade == nil)
    }
}
