import Foundation
import Library
@testable import Player
import PlayerCore
import Testing

/// Library edits of the book playing, through `PlayerController.edit`: what they mean for what
/// is heard is the player's. On the test's clock, with a real library file.
@Suite(.serialized) struct LibraryEditTests {
    static let rate = 22050.0

    /// "Three" (items of 10, 20 and 30 s) playing 5 s into its second item.
    static func playing(_ name: String) async throws -> (ControllerHarness, book: Int64) {
        let player = try ControllerHarness(clocked: name)
        let book = try player.book("Three", itemSeconds: [10, 20, 30])
        try player.perform(.play(bookId: book))
        try player.perform(.goto(item: 1, seconds: 5))
        #expect(await player.runUntilHeard { $0.item == 1 && $0.frame >= Int64(6 * rate) })
        return (player, book)
    }

    @Test func itemsReorderedWhilePlayingAreTakenWithoutABreak() async throws {
        let (player, book) = try await Self.playing("edit-reorder")
        let playingMedia = try player.library.books.items(ofBook: book)[1].id!
        let heardBefore = player.heardSeconds

        // When the item playing is moved to the end of the book
        try player.controller.edit(.itemsAddedOrMoved(bookId: book)) { try player.library.books.moveItem(ofBook: book, from: 1, to: 2) }

        // Then it is item 3 now, at the same place, still playing, and it plays on from there
        #expect(player.status.itemNumber == 3 && player.status.state == .playing, "\(player.status.itemNumber)")
        #expect(try player.library.books.items(ofBook: book)[2].id == playingMedia)
        let place = player.status.itemPosition
        player.advance(by: .seconds(2))
        #expect(abs(player.status.itemPosition - (place + 2)) < 0.2, "\(place) -> \(player.status.itemPosition)")
        #expect(abs(player.heardSeconds - heardBefore - 2) < 0.2, "heard \(player.heardSeconds - heardBefore) s")
        #expect(!player.events.contains { if case .stateChanged(.stopped) = $0 { true } else { false } })
    }

    @Test func anItemRemovedStopsTheBookAndLoadsItAgainAtItsPlacePlayingOn() async throws {
        let (player, book) = try await Self.playing("edit-remove")
        let place = player.status.itemPosition

        // When the first item (not the one playing) is removed from the book
        let first = try player.library.books.items(ofBook: book)[0].id!
        try player.controller.edit(.itemsRemoved(bookId: book)) { try player.library.books.removeItems(fromBook: book, mediaIds: [first]) }

        // Then the book is loaded again, the same file at the same place (now item 1 of 2), and
        // plays on; the listener is told in one notice
        #expect(player.status.itemCount == 2 && player.status.itemNumber == 1, "\(player.status.itemNumber)/\(player.status.itemCount)")
        #expect(abs(player.status.itemPosition - place) < 0.1, "\(place) -> \(player.status.itemPosition)")
        #expect(player.status.state == .playing)
        #expect(player.notices.contains { if case .reloaded(_, _, true, _) = $0 { true } else { false } }, "\(player.notices)")
        #expect(await player.runUntilHeard { $0.item == 0 && $0.frame >= Int64((place + 1) * Self.rate) })
    }

    @Test func theBookDeletedIsStoppedFirstAndAnotherBooksEditTouchesNothing() async throws {
        let (player, book) = try await Self.playing("edit-delete")
        let other = try player.book("Other", itemSeconds: [5])

        // When another book is deleted, nothing changes for the book playing
        try player.controller.edit(.bookDeleted(bookId: other)) { try player.library.books.deleteBook(other) }
        #expect(player.status.state == .playing && player.status.book == "Three")

        // When the book playing is deleted, it is stopped first (its place saved, said), then gone
        let place = player.status.itemPosition
        let savedBefore = try player.library.positions.startingPlace(ofBook: book)
        try player.controller.edit(.bookDeleted(bookId: book)) {
            // (the place was saved before the deletion)
            let saved = try player.library.positions.startingPlace(ofBook: book)
            #expect(saved.item == 1 && abs(Double(saved.frame) / Self.rate - place) < 0.1, "\(saved) (was \(savedBefore))")
            try player.library.books.deleteBook(book)
        }
        #expect(player.controller.status == nil)
        #expect(player.notices.contains(.stopped(book: "Three", reason: "it is being deleted")), "\(player.notices)")
    }
}
