@testable import Player
import PlayerCore
import Testing

/// The session's numbering while a new item list is on its way to the engine.
@Suite struct ItemNumberingTests {
    @Test func eventsAndPositionsFromBeforeTheEngineTookTheListAreRenumbered() throws {
        // Given a session of media 10, 20 whose list became 5, 10, 20 (5 joined before)
        var numbering = ItemNumbering(mediaIds: [10, 20])
        let renumbering = try #require(ItemRenumbering(from: [10, 20], to: [5, 10, 20]))
        numbering.replace(with: [5, 10, 20], renumbering)
        #expect(numbering.mediaIds == [5, 10, 20])
        let old = PlaybackPosition(item: 1, frame: 700)

        // Then an event the engine sent before taking it is read in the new numbering
        guard case let .position(heard)? = numbering.current(.position(old)) else { Issue.record("no position"); return }
        #expect(heard == PlaybackPosition(item: 2, frame: 700))
        // and a position read from the engine is renumbered unless the engine had taken it
        #expect(numbering.current(old, itemListsReplaced: 0) == PlaybackPosition(item: 2, frame: 700))
        #expect(numbering.current(old, itemListsReplaced: 1) == old)

        // When the engine announces taking it, that announcement is consumed
        #expect(numbering.current(.itemsReplaced(renumbering)) == nil)
        // and what follows is already numbered anew
        guard case let .position(after)? = numbering.current(.position(old)) else { Issue.record("no position"); return }
        #expect(after == old)
        #expect(numbering.current(old, itemListsReplaced: 1) == old)
    }
}
