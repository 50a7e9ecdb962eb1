import Foundation
import Library
@testable import Player
import PlayerCore
import Testing

/// The player's start (`cueBookListenedToLast`): the book listened to last shown loaded and
/// paused at its place, as BookPlayer, Voice and cmus show it, without that start counting as
/// listening. On the test's clock, with the library in a real SQLite file.
@Suite(.serialized) struct CuedStartTests {
    static let rate = 22050.0

    /// "Long" (120 s, its place 1:00 saved an hour ago) and "Other", never played.
    static func library(_ name: String) throws -> (ControllerHarness, book: Int64, savedAt: Date) {
        let player = try ControllerHarness(clocked: name)
        let book = try player.book("Long", itemSeconds: [120])
        _ = try player.book("Other", itemSeconds: [10])
        let item = try player.library.books.items(ofBook: book)[0]
        try player.library.positions.savePosition(bookId: book, mediaId: item.id!, frame: Int64(60 * rate), at: Date() - 3600)
        let savedAt = try #require(try player.library.positions.startingPlace(ofBook: book).savedAt)
        return (player, book, savedAt)
    }

    @Test func theBookListenedToLastIsReadyPausedAndPlayRewindsForTheTimeSinceItWasHeard() async throws {
        let (player, book, savedAt) = try Self.library("cued")

        // When the player starts
        let outcome = player.controller.cueBookListenedToLast()

        // Then that book is loaded, paused exactly at its place (no rewind yet)
        guard case let .cued(cued, seconds, item, count) = outcome else { Issue.record("not cued: \(String(describing: outcome))"); return }
        #expect(cued.id == book && seconds == 60 && item == 0 && count == 1)
        #expect(player.status.book == "Long" && player.status.state == .paused && player.status.itemPosition == 60)
        // and the state observers read says so (MPRIS shows Paused with its metadata from it)
        #expect(player.controller.broadcast.current?.state == .paused)
        // and nothing plays however long it waits, nothing is saved or counted
        player.advance(by: .seconds(5))
        #expect(player.heardSeconds == 0 && player.status.itemPosition == 60)
        #expect(try player.library.positions.startingPlace(ofBook: book).savedAt == savedAt)
        #expect(try player.library.history.sessions(ofBook: book).isEmpty)
        #expect(try player.library.history.itemPlays(ofBook: book).isEmpty)
        // and a second start does not load it again
        #expect(player.controller.cueBookListenedToLast() == nil)

        // When play is pressed
        try player.perform(.play(bookId: nil))

        // Then it goes back as a start playing it would (an hour: the most, 30 s), says so, plays
        #expect(player.notices.contains { if case let .rewound(back) = $0 { abs(back - 30) < 0.01 } else { false } })
        #expect(await player.runUntilHeard { $0.frame >= Int64(32 * Self.rate) })
        #expect(player.status.state == .playing && abs(player.status.itemPosition - 32) < 0.2, "\(player.status.itemPosition)")
        #expect(abs(player.heardSeconds - 2) < 0.2, "heard \(player.heardSeconds) s")
        // and from now on it is listening: saved, and a session under way
        try player.perform(.pause)
        player.advance(by: .milliseconds(100))
        let saved = try player.library.positions.startingPlace(ofBook: book)
        #expect(saved.savedAt != savedAt && abs(Double(saved.frame) / Self.rate - 32) < 0.2, "\(saved)")
        #expect(try player.library.history.sessions(ofBook: book).count == 1)
    }

    @Test func quittingBeforePlayLeavesThePlaceAndItsTimeAsTheyWere() throws {
        // Given the player started with "Long" cued
        let (player, book, savedAt) = try Self.library("cued-quit")
        #expect(player.controller.cueBookListenedToLast() != nil)
        player.advance(by: .seconds(1))

        // When it quits without playing
        player.controller.close()

        // Then the saved place and when it was saved are unchanged (another device's later
        // listening still wins), and no listening was recorded
        let saved = try player.library.positions.startingPlace(ofBook: book)
        #expect(saved.item == 0 && saved.frame == Int64(60 * Self.rate) && saved.savedAt == savedAt)
        #expect(try player.library.history.sessions(ofBook: book).isEmpty)
    }

    @Test func aSeekBeforePlayIsTheListenersAndIsSaved() throws {
        // Given the player started with "Long" cued
        let (player, book, _) = try Self.library("cued-seek")
        #expect(player.controller.cueBookListenedToLast() != nil)
        player.advance(by: .milliseconds(100))

        // When the listener seeks to 1:30 while it is paused, then quits
        try player.perform(.seek(.absolute(seconds: 90)))
        player.advance(by: .milliseconds(100))
        player.controller.close()

        // Then 1:30 is the saved place, and the jump can be undone (an automatic bookmark at 1:00)
        #expect(try player.saved(book) == (item: 0, frame: Int64(90 * Self.rate)))
        let marks = try player.library.bookmarks.all(ofBook: book)
        #expect(marks.contains { $0.kind == .beforeSeek && $0.frame == Int64(60 * Self.rate) }, "\(marks)")
    }

    @Test func withNothingListenedToNothingIsCued() throws {
        let player = try ControllerHarness(clocked: "cued-none")
        _ = try player.book("Unread", itemSeconds: [10])
        #expect(player.controller.cueBookListenedToLast() == nil)
        #expect(player.controller.status == nil)
    }
}
