import Foundation
import Library
import Listening
@testable import Player
import PlayerCore
import Testing
import TestSupport

/// A player that syncs, driven as the REPL drives it: another library's journal landing in the
/// folder is seen by inotify and exchanged off the player's task; a book not loaded moves to the
/// later place; the book loaded is never moved, its later place is offered, and `sync jump` goes
/// there with an undo point.
@Suite struct PlayerSyncTests {
    @Test func anotherDevicesLaterPlaceMovesABookNotLoadedAndIsOfferedForTheOneLoaded() async throws {
        // Given a player syncing through a folder, and another library of the same files
        let harness = try ControllerHarness("sync")
        let bookId = try harness.book("Code", itemSeconds: [4, 30]) // two files of other content (the library knows files by content); the second long enough that a loaded machine pauses it before its end
        let laptop = try LibraryDatabase()
        _ = try Importer(library: laptop, inspector: DecoderInspector(decoders: ControllerHarness.registry))
            .importPaths([harness.folder.appending(path: "Code").path])
        let theirBook = try laptop.book(matching: "Code").id!
        let theirItems = try laptop.items(ofBook: theirBook).map { $0.id! }
        let rate = Int64(try laptop.items(ofBook: theirBook)[0].sampleRate)
        let shared = try BuildProducts.temporaryDirectory("player-sync-folder")
        let laptopDevice = DeviceID("LAPTOP")!
        guard case let .sync(.folder(settings)) = try harness.perform(.sync(.folder(shared.path))) else {
            Issue.record("sync dir did not answer with the folder")
            return
        }
        #expect(settings.folder == shared.path)
        func notices(containing text: String) -> Int {
            harness.notices.filter { if case let .synced(line) = $0 { line.contains(text) } else { false } }.count
        }

        // When the laptop listens to 0:06 (item 2 at 2 s) and exchanges
        try laptop.savePosition(bookId: theirBook, mediaId: theirItems[1], frame: 2 * rate, at: Date())
        _ = try laptop.exchangeSync(folder: shared.path, device: laptopDevice, deviceName: "laptop", playing: nil)

        // Then the player hears of it without being asked, and the book (not loaded) is there
        #expect(await harness.run(until: { notices(containing: "Code: now at 0:06, where laptop listened") == 1 }, seconds: 60),
                "\(harness.notices)")
        #expect(try harness.saved(bookId).item == 1 && harness.saved(bookId).frame == 2 * rate)

        // When the book plays and pauses, and the laptop listens later, to 0:02
        try harness.perform(.play(bookId: bookId))
        // Paused once the place it starts from is heard (a loaded machine can take a while).
        #expect(await harness.runUntilHeard(seconds: 60) { $0.item == 1 && $0.frame >= 2 * rate })
        try harness.perform(.pause)
        // Where it is once the engine has paused (a loaded machine plays on a moment after the command).
        #expect(await harness.run(until: { harness.events.contains { if case .stateChanged(.paused) = $0 { true } else { false } } },
                                  seconds: 60))
        let pausedAt = try #require(harness.status.bookPosition)
        try laptop.savePosition(bookId: theirBook, mediaId: theirItems[0], frame: 2 * rate, at: Date().addingTimeInterval(60))
        _ = try laptop.exchangeSync(folder: shared.path, device: laptopDevice, deviceName: "laptop", playing: nil)

        // Then the place is offered, not taken
        #expect(await harness.run(until: { notices(containing: "laptop was at 0:02") >= 1 }, seconds: 60), "\(harness.notices)")
        #expect(harness.status.itemNumber == 2)

        // When the listener takes it, then the player is there, and undo goes back
        guard case let .moved(place) = try harness.perform(.sync(.jump)) else {
            Issue.record("sync jump did not move")
            return
        }
        #expect(abs((place.bookSeconds ?? 0) - 2) < 0.05, "\(place.text)")
        guard case let .undone(back) = try harness.perform(.undo) else {
            Issue.record("undo did not go back")
            return
        }
        #expect(abs((back.bookSeconds ?? 0) - pausedAt) < 0.3, "\(back.text), paused at \(pausedAt)")
        // and with no offer standing, sync jump says so
        #expect(throws: PlayerError.self) { try harness.perform(.sync(.jump)) }
    }
}
