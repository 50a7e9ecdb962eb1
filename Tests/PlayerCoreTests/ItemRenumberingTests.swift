@testable import PlayerCore
import Testing

@Suite struct ItemRenumberingTests {
    @Test func itemsAreMatchedByIdentityAndTheNewOnesAreTheJoined() throws {
        // Given a list a, b, c that becomes x, a, b, y, c (x before the start, y between)
        let renumbering = try #require(ItemRenumbering(from: ["a", "b", "c"], to: ["x", "a", "b", "y", "c"]))
        // Then each old item has its new place, and x and y are the joined ones
        #expect(renumbering.newIndices == [1, 2, 4] && renumbering.newCount == 5)
        #expect(renumbering.joined == [0, 3])
        #expect(!renumbering.isIdentity)
        // a position keeps its frame and moves to its item's new place
        #expect(renumbering(PlaybackPosition(item: 1, frame: 480)) == PlaybackPosition(item: 2, frame: 480))
        // past the old end (decoding ran off it) stays as far past the new end
        #expect(renumbering(3) == 5)
        // an item that left the list is not a renumbering
        #expect(ItemRenumbering(from: ["a", "b"], to: ["a", "c"]) == nil)
        #expect(ItemRenumbering(from: ["a", "b"], to: ["a", "b"])?.isIdentity == true)
    }

    @Test func twoReplacementsInARowComposeAndOrdersFollow() throws {
        let first = try #require(ItemRenumbering(from: ["a", "b"], to: ["a", "b", "c"]))
        let second = try #require(ItemRenumbering(from: ["a", "b", "c"], to: ["z", "a", "b", "c"]))
        #expect(first.then(second).newIndices == [1, 2] && first.then(second).newCount == 4)
        // a shuffled plan keeps its order over the renumbered items, the joined ones at its end
        let order = ItemOrder.sequence([2, 0, 1], repeating: true).renumbered(second)
        #expect(order == .sequence([3, 1, 2, 0], repeating: true))
        // the other orders do not name items
        #expect(ItemOrder.repeatList.renumbered(second) == .repeatList)
        // an event sent before the engine took the list is read in the new numbering
        guard case let .position(heard) = PlaybackEvent.position(PlaybackPosition(item: 0, frame: 9)).renumbered(second) else {
            Issue.record("not a position")
            return
        }
        #expect(heard == PlaybackPosition(item: 1, frame: 9))
    }

    @Test func theClockKeepsItsOutputFramesAndRenumbersItsMarks() throws {
        // Given a clock with the end of item 0 and the start of item 1 in the ring
        var clock = PositionClock()
        clock.mark(outputFrame: 0, at: PlaybackPosition(item: 0, frame: 1000))
        clock.mark(outputFrame: 500, at: PlaybackPosition(item: 1, frame: 0))
        // When item "x" joins before both
        clock.renumber(try #require(ItemRenumbering(from: ["a", "b"], to: ["x", "a", "b"])))
        // Then the same output frames are the same audio, numbered anew
        #expect(clock.position(ahead: 100) == PlaybackPosition(item: 1, frame: 1100))
        #expect(clock.position(atOutputFrame: 600) == PlaybackPosition(item: 2, frame: 100))
    }
}
