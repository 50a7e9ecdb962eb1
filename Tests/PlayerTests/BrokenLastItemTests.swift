import Foundation
import Library
@testable import Player
import PlayerCore
import Testing
import TestSupport

/// A book whose last file went bad after it was imported: the player says so in one notice and
/// ends; it does not follow the engine past the book's last item (an index out of range, once).
@Suite struct BrokenLastItemTests {
    @Test func aLastItemThatNoLongerOpensEndsTheBookWithANotice() async throws {
        // Given a book of two files whose second is garbage now
        let harness = try ControllerHarness("broken-last", paced: false)
        let bookId = try harness.book("Broken", itemSeconds: [2, 3])
        try Data(repeating: 0x5A, count: 4096).write(to: harness.folder.appending(path: "Broken/02.mp3"))

        // When it plays through
        try harness.perform(.play(bookId: bookId))
        let ended = await harness.run(until: {
            harness.notices.contains { if case .itemFailed = $0 { true } else { false } }
                && harness.events.contains { if case .ended = $0 { true } else { false } }
        }, seconds: 60)

        // Then the failure is told for item 2 and the book ended, with the player still answering
        #expect(ended, "\(harness.notices)")
        #expect(harness.notices.contains { if case let .itemFailed(item, _, _) = $0 { item == 1 } else { false } })
        #expect(throws: Never.self) { try harness.perform(.status) }
    }
}
