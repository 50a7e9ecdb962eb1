import Foundation
import Library
import Testing
import TestSupport

/// The journal between two libraries of the same books at different paths, carried by a real
/// Syncthing pair and by plain rsync: what one library writes, the other reads whole and maps to
/// its own books; the later listening wins.
/// The waits for Syncthing sleep as tasks, and the pair starts off Swift's cooperative pool
/// (`offThePool`): a thread blocked for seconds here would stall the async tests beside it.
@Suite struct SyncOverSyncthingTests {
    let laptop = DeviceID("LAPTOP")!
    let desktop = DeviceID("DESKTOP")!

    /// Two libraries of the audiobook tree, one at a copy's path, and War's id in each.
    func twoLibraries(_ name: String) throws -> (here: LibraryDatabase, there: LibraryDatabase, war: Int64, theirWar: Int64) {
        let here = try LibraryDatabase()
        _ = try importer(here).importPaths([try Fixtures.audiobookTree().path])
        let there = try LibraryDatabase()
        _ = try importer(there).importPaths([try copyOfAudiobookTree(name).path])
        return (here, there, try here.books.book(matching: "War").id!, try there.books.book(matching: "War").id!)
    }

    /// Waits until `folder` holds `device`'s journal with `count` records; the journal, or nil at the deadline.
    /// (Looked for once more at the deadline: in a full run a sleeping task can wait long for a
    /// thread of the cooperative pool, and both tests once woke past 60 s with nothing looked
    /// at since. Generous, as every wait on a real server is.)
    func journal(of device: DeviceID, in folder: URL, records count: Int, timeout: Double = 120) async throws -> SyncJournal? {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(timeout)
        while true {
            if let contents = SyncFolder.read(folder.path, excluding: nil),
               let journal = contents.journals.first(where: { $0.device == device }), journal.recordCount >= count {
                return journal
            }
            guard clock.now < deadline else { return nil }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// The place each library's merge gives `book` (this library's own claim included).
    func place(in library: LibraryDatabase, of book: Int64, journals: [SyncJournal], local: DeviceID) throws -> PositionClaim? {
        let merged = SyncMergeRules.merge(journals) { try? library.sync.bookId(matching: $0) }
        return SyncMergeRules(local: local).winningPosition(merged[book]?.positions ?? [])
    }

    @Test func aPlaceAndABookmarkTravelThroughSyncthingAndTheLaterListeningWins() async throws {
        // Given two libraries of the same books at different paths, and a Syncthing pair sharing a folder
        let (here, there, war, theirWar) = try twoLibraries("sync-syncthing")
        let pair = try await offThePool { try SyncthingPair() }
        let identity = try here.sync.identity(ofBook: war)
        let start = Date().addingTimeInterval(-3600)

        // When the laptop writes where it is in War and a bookmark into its journal
        try SyncJournalWriter(folder: pair.a.folder.path, device: laptop).append([
            SyncRecord(book: identity, at: start, change: .position(item: identity.items[1], frame: 44_100 * 2)),
            SyncRecord(book: identity, at: start, change: .bookmark(SyncBookmark(
                id: "9F3A", item: identity.items[0], frame: 4410, kind: .user, note: "the duel", createdAt: start))),
        ])

        // Then the desktop's copy of the folder gets the journal whole, and the place and bookmark are its own War's
        let delivered = try #require(try await journal(of: laptop, in: pair.b.folder, records: 2))
        let theirPlace = try #require(try place(in: there, of: theirWar, journals: [delivered], local: desktop))
        #expect(theirPlace.device == laptop && theirPlace.frame == 44_100 * 2)
        #expect(theirPlace.item == (try there.books.items(ofBook: theirWar))[1].fingerprint)
        let merged = SyncMergeRules.merge([delivered]) { try? there.sync.bookId(matching: $0) }
        #expect(merged[theirWar]?.bookmarks.map(\.note) == ["the duel"])

        // When the desktop listens on later and writes its own journal
        try SyncJournalWriter(folder: pair.b.folder.path, device: desktop).append([
            SyncRecord(book: try there.sync.identity(ofBook: theirWar), at: start.addingTimeInterval(600),
                       change: .position(item: identity.items[1], frame: 44_100 * 3)),
        ])

        // Then the laptop sees the desktop's later place win over its own
        let back = try #require(try await journal(of: desktop, in: pair.a.folder, records: 1))
        let own = try SyncJournal.read(path: pair.a.folder.path + "/LAPTOP.abplayer-journal")
        let winner = try #require(try place(in: here, of: war, journals: [own, back], local: laptop))
        #expect(winner.device == desktop && winner.frame == 44_100 * 3)
    }

    /// Exchanges `library` as `device` until `done` holds for its report (the other journal
    /// may not be delivered yet); the report that did, or nil at the deadline.
    func exchange(_ library: LibraryDatabase, as device: DeviceID, in folder: URL, timeout: Double = 120,
                  until done: (SyncExchangeReport) throws -> Bool) async throws -> SyncExchangeReport? {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(timeout)
        while true {
            let report = try library.sync.exchange(folder: folder.path, device: device, playing: nil)
            if try done(report) { return report }
            guard clock.now < deadline else { return nil }
            try await Task.sleep(for: .milliseconds(150))
        }
    }

    @Test func twoLibrariesStayInStepThroughSyncthingAndTheLaterListeningWinsAfterBothWereOffline() async throws {
        // Given two libraries of the same books at different paths, each exchanging through its
        // own copy of a folder that Syncthing keeps the same
        let (here, there, war, theirWar) = try twoLibraries("sync-offline")
        let pair = try await offThePool { try SyncthingPair() }
        let (mine, theirs) = (try here.books.items(ofBook: war), try there.books.items(ofBook: theirWar))
        let hour = Date().addingTimeInterval(-3600)

        // When the laptop listens to War's second file and exchanges (places inside its one second
        // at 22,050 Hz: one past an item's end is damaged and not applied)
        try here.positions.savePosition(bookId: war, mediaId: mine[1].id!, frame: 20_000, at: hour)
        _ = try here.sync.exchange(folder: pair.a.folder.path, device: laptop, playing: nil)

        // Then the desktop, once Syncthing has delivered, is there too
        let moved = try #require(try await exchange(there, as: desktop, in: pair.b.folder) { !$0.moved.isEmpty })
        #expect(moved.moved.map(\.bookId) == [theirWar])
        #expect(try there.positions.ofBook(theirWar)?.mediaId == theirs[1].id && there.positions.ofBook(theirWar)?.frame == 20_000)

        // When the desktop bookmarks a place, then the laptop has the bookmark
        try there.bookmarks.add(bookId: theirWar, mediaId: theirs[0].id!, frame: 2205, kind: .user, note: "the ball", at: hour)
        _ = try there.sync.exchange(folder: pair.b.folder.path, device: desktop, playing: nil)
        #expect(try await exchange(here, as: laptop, in: pair.a.folder) { $0.bookmarksAdded == 1 } != nil)
        #expect(try here.bookmarks.all(ofBook: war, includeAutomatic: false).map(\.note) == ["the ball"])

        // When both go offline and both listen, the desktop later, each exchanging with its own folder
        try pair.a.setPaused(true)
        try pair.b.setPaused(true)
        try here.positions.savePosition(bookId: war, mediaId: mine[0].id!, frame: 11_025, at: hour.addingTimeInterval(600))
        try there.positions.savePosition(bookId: theirWar, mediaId: theirs[1].id!, frame: 16_000, at: hour.addingTimeInterval(1200))
        _ = try here.sync.exchange(folder: pair.a.folder.path, device: laptop, playing: nil)
        _ = try there.sync.exchange(folder: pair.b.folder.path, device: desktop, playing: nil)
        #expect(try here.positions.ofBook(war)?.frame == 11_025, "offline, each keeps its own place")

        // and come back
        try pair.a.setPaused(false)
        try pair.b.setPaused(false)

        // Then the laptop takes the desktop's later place and keeps its own as an undo point
        let caughtUp = try #require(try await exchange(here, as: laptop, in: pair.a.folder, timeout: 120) { !$0.moved.isEmpty })
        #expect(caughtUp.moved.first?.leftUndoPoint == true)
        #expect(try here.positions.ofBook(war)?.mediaId == mine[1].id && here.positions.ofBook(war)?.frame == 16_000)
        let undo = try here.bookmarks.all(ofBook: war).filter { $0.kind == .beforeSyncJump }
        #expect(undo.map(\.frame) == [11_025] && undo.map(\.mediaId) == [mine[0].id])
        // and the desktop, once the laptop's journal is back, stays where it listened last
        #expect(try await journal(of: laptop, in: pair.b.folder, records: 3, timeout: 120) != nil) // its place, the bookmark it took, its offline place
        let settled = try there.sync.exchange(folder: pair.b.folder.path, device: desktop, playing: nil)
        #expect(settled.moved.isEmpty && settled.waiting == nil)
        #expect(try there.positions.ofBook(theirWar)?.frame == 16_000)

        // When the laptop marks War finished, then the desktop has it finished too
        try here.positions.markFinished(bookId: war)
        _ = try here.sync.exchange(folder: pair.a.folder.path, device: laptop, playing: nil)
        #expect(try await exchange(there, as: desktop, in: pair.b.folder) { $0.finishedChanged == 1 } != nil)
        #expect(try there.books.book(matching: "#\(theirWar)").finishedAt != nil)
    }

    @Test func theSameJournalCopiedByRsyncReadsTheSame() async throws {
        // Given a journal written in one folder and copied to another by rsync, as a cron job would
        let (here, there, war, theirWar) = try twoLibraries("sync-rsync")
        let source = try BuildProducts.temporaryDirectory("sync-rsync-source")
        let copy = try BuildProducts.temporaryDirectory("sync-rsync-copy")
        let identity = try here.sync.identity(ofBook: war)
        try SyncJournalWriter(folder: source.path, device: laptop).append([
            SyncRecord(book: identity, at: Date(), change: .position(item: identity.items[0], frame: 777)),
            SyncRecord(book: identity, at: Date(), change: .finished(true)),
        ])
        let result = try Command.run("rsync", ["-a", source.path + "/", copy.path + "/"])
        #expect(result.status == 0)

        // When the other library reads the copy
        let contents = try #require(SyncFolder.read(copy.path, excluding: desktop))

        // Then it finds its own War at the same place, finished, with nothing damaged
        #expect(contents.problems.isEmpty)
        let merged = SyncMergeRules.merge(contents.journals) { try? there.sync.bookId(matching: $0) }
        #expect(merged[theirWar]?.positions.map(\.frame) == [777])
        #expect(merged[theirWar]?.finished?.value == true)
    }
}
