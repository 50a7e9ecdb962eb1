import Foundation
import Synchronization
import Testing
@testable import Console
import Library
import Player
import PlayerCore
import TestSupport

/// The player service driven directly, as its faces and clients drive it (no binary, no
/// terminal): lines and typed commands from clients on threads of their own, events to
/// subscribers, library edits of the book playing, on the tests' clock and output.
@Suite struct PlayerServiceTests {
    /// What a client thread found, kept for the test's checks after the service stopped.
    final class Found: Sendable {
        let replies = Mutex<[String: RemoteReply]>([:])
        let values = Mutex<[String: Double]>([:])

        func keep(_ name: String, _ reply: RemoteReply) { replies.withLock { $0[name] = reply } }
        func keep(_ name: String, _ value: Double) { values.withLock { $0[name] = value } }
        func reply(_ name: String) -> RemoteReply? { replies.withLock { $0[name] } }
        func value(_ name: String) -> Double? { values.withLock { $0[name] } }
    }

    @Test func twoClientsAtOnceEachInItsOwnShelfDriveTheOnePlayer() async throws {
        // Given a service whose library has a book on Fiction and one on Poetry
        let harness = try ServiceHarness("two-clients")
        try harness.book("Blue Book", shelf: "Fiction", itemSeconds: [31, 32])
        try harness.book("Red Book", shelf: "Poetry", itemSeconds: [33])
        let found = Found()
        // When two clients at once each go to a shelf of their own, list it, and one plays its
        // shelf's book by a name only that shelf makes unique while the other asks the status
        let started = DispatchSemaphore(value: 0)
        await harness.run([
            { client in
                found.keep("a cd", client.send("cd Fiction"))
                found.keep("a ls", client.send("ls"))
                found.keep("a play", client.send("play Book"))
                started.signal()
                client.listen(seconds: 2)
                found.keep("a ls after", client.send("ls"))
            },
            { client in
                found.keep("b cd", client.send("cd Poetry"))
                found.keep("b ls", client.send("ls"))
                _ = started.wait(timeout: .now() + 60)
                found.keep("b status", client.send("status --json"))
            },
        ])
        // Then each listing is its own shelf's, whatever the other did meanwhile
        #expect(found.reply("a cd")?.ok == true && found.reply("b cd")?.ok == true)
        #expect(found.reply("a ls")?.output.joined().contains("Blue Book") == true)
        #expect(found.reply("a ls")?.output.joined().contains("Red Book") == false)
        #expect(found.reply("b ls")?.output.joined().contains("Red Book") == true)
        #expect(found.reply("b ls")?.output.joined().contains("Blue Book") == false)
        #expect(found.reply("a ls after")?.output.joined().contains("Blue Book") == true)
        // and "play Book" in Fiction played the Blue Book, which the other client sees playing
        #expect(found.reply("a play")?.ok == true, "\(String(describing: found.reply("a play")))")
        let status = found.reply("b status")?.status
        #expect(status?.book == "Blue Book")
        #expect(status?.state == .playing)
        // and the terminal's own shelf never moved
        #expect(harness.service.commands.location.current == "")
        // and closing saved the place heard (2 s into the first item)
        let saved = try harness.library.positions.startingPoint(ofBook: try harness.library.books.book(matching: "Blue Book").id!)
        #expect(saved.item == 0 && abs(Double(saved.frame) / 22050 - 2) < 0.05, "\(saved)")
    }

    @Test func everySubscriberHearsWhatAnyClientDidAndOneLeavingDisturbsNothing() async throws {
        // Given a service with a book, and two subscribers to its events
        let harness = try ServiceHarness("subscribers")
        try harness.book("Green Book", itemSeconds: [34])
        let stayed = harness.service.broadcast.subscribe()
        var leaving: AsyncStream<PlayerUpdate>? = harness.service.broadcast.subscribe()
        let found = Found()
        // When a client plays it (a typed command, as MPRIS sends), 3 s are heard, the second
        // subscriber leaves, and a line pauses it
        await harness.run([
            { client in
                if case .started? = try? client.perform(.play(bookId: 1))?.get() { found.keep("started", 1) }
                client.listen(seconds: 3)
                found.keep("pause", client.send("pause"))
                found.keep("heard", Double(client.output.frameCount))
            },
        ])
        leaving = nil
        _ = leaving
        // Then the one that stayed heard the book start, play and pause at 3 s
        var states: [BookState] = []
        var positions: [Double] = []
        var pausedAt: Double?
        for await update in stayed {
            switch update {
            case let .changed(status?):
                states.append(status.state)
                if status.state == .paused { pausedAt = status.bookPosition }
            case let .position(status): positions.append(status.bookPosition ?? -1)
            default: break
            }
            if pausedAt != nil { break }
        }
        #expect(found.value("started") == 1)
        #expect(found.reply("pause")?.ok == true)
        #expect(states.first == .playing && states.last == .paused, "\(states)")
        #expect(pausedAt.map { abs($0 - 3) < 0.05 } == true, "\(String(describing: pausedAt))")
        // and the place moving on the way there
        #expect(positions.count >= 2 && positions == positions.sorted() && positions.last! <= 3.05, "\(positions)")
        #expect(found.value("heard").map { abs($0 / 22050 - 3) < 0.01 } == true)
    }

    @Test func editsOfTheBookPlayingAreTheServicesAndTheBookPlaysOnOrStopsAsTheyNeed() async throws {
        // Given a service playing item 2 of a three-item book
        let harness = try ServiceHarness("edits")
        let bookId = try harness.book("Violet Book", itemSeconds: [35, 36, 37])
        // (left at the top of item 2 before: a `goto 2` after `play` raced the listening, the
        // engine's jump stopping the output half-way through a take, and the second heard was
        // part item 1, part item 2)
        let second = try harness.library.books.items(ofBook: bookId)[1]
        try harness.library.positions.savePosition(bookId: bookId, mediaId: second.id!, frame: 0)
        let found = Found()
        await harness.run([
            { client in
                found.keep("play", client.send("play Violet Book"))
                client.listen(seconds: 1)
                // (once the player has taken in the output's reports of what it heard: they come
                // a few times a second, so the last may be a little before 1 s)
                _ = waitUntil(within: 60) { (client.broadcast.current?.itemPosition ?? 0) > 0.75 }
                // When its items are reordered (item 2 becomes the first), it plays on
                found.keep("reorder", client.send("book reorder 'Violet Book' 2 1"))
                found.keep("after reorder", client.send("status --json"))
                client.listen(seconds: 1)
                // and when the book is deleted, the player stops (nothing loaded)
                found.keep("rm", client.send("book rm 'Violet Book'"))
                found.keep("after rm", client.send("status --json"))
            },
        ])
        #expect(found.reply("play")?.ok == true, "\(String(describing: found.reply("play")))")
        #expect(found.reply("reorder")?.ok == true, "\(String(describing: found.reply("reorder")))")
        let after = found.reply("after reorder")?.status
        #expect(after?.state == .playing && after?.itemNumber == 1, "\(String(describing: after))")
        #expect(after.map { abs($0.itemPosition - 1) < 0.1 } == true, "the same place, now in item 1: \(String(describing: after))")
        #expect(found.reply("rm")?.ok == true, "\(String(describing: found.reply("rm")))")
        #expect(found.reply("after rm")?.status == nil)
        #expect(found.reply("after rm")?.output == ["nothing is playing"] || found.reply("after rm")?.errors.isEmpty == false)
        #expect(throws: (any Error).self) { try harness.library.catalog.bookListing(id: bookId) }
    }

    @Test func subscribersAreToldWhenAClientEditsTheLibraryAndNotWhenItReadsIt() async throws {
        // Given a service with a book, and a subscriber to its events
        let harness = try ServiceHarness("library-events")
        try harness.book("Gray Book", itemSeconds: [38])
        let updates = harness.service.broadcast.subscribe()
        let found = Found()
        let state = harness.folder.appending(path: "state.json").path
        // When a client reads the library, plays the book (a change the subscriber sees, marking
        // where the reads end), renames the book and makes a shelf, and pauses (marking the end)
        await harness.run([
            { client in
                for line in ["ls", "tree", "find Gray", "book items 'Gray Book'", "history", "stats", "export \(state)"] {
                    found.keep(line, client.send(line))
                }
                found.keep("play", client.send("play Gray Book"))
                found.keep("rename", client.send("book rename 'Gray Book' 'Grey Book'"))
                found.keep("shelf", client.send("shelf new Talks"))
                found.keep("pause", client.send("pause"))
            },
        ])
        let lines = ["ls", "find Gray", "book items 'Gray Book'", "export \(state)", "play", "rename", "shelf", "pause"]
        #expect(lines.allSatisfy { found.reply($0)?.ok == true }, "\(lines.map { found.reply($0) })")
        // Then none was told while it read, and one for each edit, between the start and the pause
        var beforePlaying = 0, whilePlaying = 0
        var started = false
        for await update in updates {
            switch update {
            case .libraryChanged: if started { whilePlaying += 1 } else { beforePlaying += 1 }
            case let .changed(status?) where status.state == .playing: started = true
            default: break
            }
            if case let .changed(status?) = update, status.state == .paused { break }
        }
        #expect(started)
        #expect(beforePlaying == 0)
        #expect(whilePlaying == 2)
    }
}
