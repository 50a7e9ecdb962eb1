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
/// there with an undo point. Deadlines are long (180 s): with both cores loaded, the blocking tests
/// of other suites can hold Swift's cooperative pool, and this harness's event pump, for a minute.
@Suite struct PlayerSyncTests {
    @Test func anotherDevicesLaterPlaceMovesABookNotLoadedAndIsOfferedForTheOneLoaded() async throws {
        // Given a player syncing through a folder, and another library of the same files
        let world = try SyncingPlayer()
        let (harness, bookId, rate) = (world.harness, world.bookId, world.rate)

        // When the laptop listens to 0:06 (item 2 at 2 s) and exchanges
        try world.laptopListens(item: 1, seconds: 2, after: 0)

        // Then the player hears of it without being asked, and the book (not loaded) is there
        #expect(await harness.run(until: { world.notices(containing: "Code: now at 0:06, where laptop listened") == 1 }, seconds: 180),
                "\(harness.notices)")
        #expect(try harness.saved(bookId).item == 1 && harness.saved(bookId).frame == 2 * rate)

        // When the book plays and pauses, and the laptop listens later, to 0:02
        // Paused once the place it starts from is heard (a loaded machine can take a while).
        #expect(try await world.plays { $0.item == 1 && $0.frame >= 2 * rate })
        try harness.perform(.pause)
        // Where it is once the engine has paused (a loaded machine plays on a moment after the command).
        #expect(await harness.run(until: { world.reported(.paused, from: 0) }, seconds: 180))
        let pausedAt = try #require(harness.status.bookPosition)
        try world.laptopListens(item: 0, seconds: 2, after: 60)

        // Then the place is offered, not taken
        #expect(await harness.run(until: { world.notices(containing: "laptop was at 0:02") >= 1 }, seconds: 180), "\(harness.notices)")
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

    @Test func listeningThatEndsWithAQuitNotAPauseReachesTheOtherDevicesAtQuit() async throws {
        // Given a player syncing, playing its book past 0:05 (item 2 at 1 s)
        let world = try SyncingPlayer()
        let (harness, bookId, rate) = (world.harness, world.bookId, world.rate)
        #expect(try await world.plays { $0.item == 1 && $0.frame >= rate })

        // When the listener quits while it plays
        harness.controller.close()

        // Then the place saved at quit is the newest in its journal
        let saved = try harness.saved(bookId)
        #expect(saved.item == 1 && saved.frame >= rate)
        let item = try harness.library.books.items(ofBook: bookId)[1].fingerprint
        #expect(try world.newestPlaceWritten() == .position(item: item, frame: saved.frame))

        // And the laptop's next exchange takes it
        _ = try world.laptop.sync.exchange(folder: world.laptopFolder.path, device: world.laptopDevice, deviceName: "laptop", playing: nil)
        let there = try #require(try world.laptop.positions.ofBook(world.theirBook))
        #expect(there.mediaId == world.theirItems[1] && there.frame == saved.frame)
    }

    @Test func aPlaceMovedWhilePausedReachesTheJournalAndABurstOfMovesEndsWhereTheLastWent() async throws {
        // Given a player syncing, its book played and paused
        let world = try SyncingPlayer()
        let (harness, bookId, rate) = (world.harness, world.bookId, world.rate)
        #expect(try await world.plays { $0.item == 1 && $0.frame >= rate })
        let from = harness.events.count
        try harness.perform(.pause)
        #expect(await harness.run(until: { world.reported(.paused, from: from) }, seconds: 180))

        // When the listener seeks while it is paused, twenty times (as a held key does), and last to 0:02
        for second in 1...20 { try harness.perform(.seek(.absolute(seconds: Double(second)))) }
        try harness.perform(.seek(.absolute(seconds: 2)))

        // Then the newest place in its journal becomes 0:02, without playing again
        let item = try harness.library.books.items(ofBook: bookId)[0].fingerprint
        func newestPlace() -> SyncChange? { try? world.newestPlaceWritten() }
        #expect(await harness.run(until: { newestPlace() == .position(item: item, frame: 2 * rate) }, seconds: 180),
                "newest in the journal: \(String(describing: newestPlace())); saved: \(String(describing: try? harness.saved(bookId))); said: \(harness.notices)")
        #expect(harness.status.state == .paused)
    }

    @Test func playingTheBookLoadedGoesToTheLaterPlaceWhenAutoJumpIsOnAndOnlySaysWhereItIsWhenOff() async throws {
        // Given a player syncing, playing its book from the start
        let world = try SyncingPlayer()
        let (harness, rate) = (world.harness, world.rate)
        #expect(try await world.plays { $0.item == 1 && $0.frame >= rate })

        // When the laptop listens later, to 0:03, while this player plays
        try world.laptopListens(item: 0, seconds: 3, after: 60)

        // Then status shows where the laptop is, and nothing is said or moved while it plays
        #expect(await harness.run(until: { harness.status.elsewhere?.first?.device == "laptop" }, seconds: 180))
        #expect(abs((harness.status.elsewhere?.first?.position ?? 0) - 3) < 0.05)
        #expect(harness.status.text.contains("elsewhere: laptop 0:03"), "\(harness.status.text)")
        #expect(world.notices(containing: "laptop was at") == 0, "\(harness.notices)")
        #expect(harness.status.state == .playing)

        // When it pauses, then the listener is told that playing goes there
        var from = harness.events.count
        try harness.perform(.pause)
        #expect(await harness.run(until: { world.reported(.paused, from: from) }, seconds: 180))
        let pausedAt = try #require(harness.status.bookPosition)
        #expect(world.notices(containing: "laptop was at 0:03") == 1, "\(harness.notices)")
        #expect(world.notices(containing: "play goes there") == 1)

        // When it plays again, then it plays on from the laptop's place, and undo goes back
        try harness.perform(.play(bookId: nil))
        #expect(world.notices(containing: "on at 0:03, where laptop listened") == 1, "\(harness.notices)")
        #expect(await harness.runUntilHeard(seconds: 180) { $0.item == 0 && $0.frame >= 3 * rate })
        from = harness.events.count
        try harness.perform(.pause)
        #expect(await harness.run(until: { world.reported(.paused, from: from) }, seconds: 180))
        guard case let .undone(back) = try harness.perform(.undo) else {
            Issue.record("undo did not go back")
            return
        }
        #expect(abs((back.bookSeconds ?? 0) - pausedAt) < 0.3, "\(back.text), paused at \(pausedAt)")

        // When auto-jump is off and the laptop listens later again, to 0:10 (item 2 at 6 s)
        guard case let .sync(.jumpOnStart(settings)) = try harness.perform(.sync(.jumpOnStart(false))), !settings.jumpOnStart else {
            Issue.record("sync auto-jump off did not answer with the setting")
            return
        }
        try world.laptopListens(item: 1, seconds: 6, after: 120)

        // Then, paused, the listener is told where it is and how to go there; playing stays here
        #expect(await harness.run(until: { world.notices(containing: "laptop was at 0:10") == 1 }, seconds: 180), "\(harness.notices)")
        #expect(world.notices(containing: "'sync jump' to go there") == 1)
        let here = try #require(harness.status.bookPosition)
        try harness.perform(.play(bookId: nil))
        #expect(world.notices(containing: "on at 0:10") == 0)
        #expect(abs((harness.status.bookPosition ?? 0) - here) < 1, "\(harness.status.text)")
        try harness.perform(.pause)
        #expect(try harness.library.sync.settings().jumpOnStart == false)
    }

    @Test func aSyncFolderThatGoesAwayIsSaidOnceAndWatchedAgainWhenItIsBack() async throws {
        // Given a player syncing and playing
        let world = try SyncingPlayer()
        let harness = world.harness
        // Any place: a loaded machine may take the 4 s of the first file before this looks.
        #expect(try await world.plays { $0.frame > 0 })
        func problems() -> [String] { harness.notices.compactMap { if case let .problem(text) = $0, text.contains("sync") { text } else { nil } } }

        // When the folder goes away (a disk unmounted) and the listener pauses
        let away = world.shared.deletingLastPathComponent().appending(path: world.shared.lastPathComponent + "-away")
        try FileManager.default.moveItem(at: world.shared, to: away)
        #expect(await harness.run(until: { !problems().isEmpty }, seconds: 180))
        var from = harness.events.count
        try harness.perform(.pause)
        #expect(await harness.run(until: { world.reported(.paused, from: from) }, seconds: 180))
        #expect(throws: PlayerError.self) { try harness.perform(.sync(.now)) } // asked for: the answer says why

        // Then it was said once, in one line naming the folder, and playing goes on
        #expect(problems().count == 1 && problems().first?.contains(world.shared.path) == true, "\(problems())")
        try harness.perform(.play(bookId: nil))
        #expect(await harness.runUntilHeard(seconds: 180) { _ in true })

        // When it is back and the listener pauses, then syncing says it goes on
        try FileManager.default.moveItem(at: away, to: world.shared)
        from = harness.events.count
        try harness.perform(.pause)
        #expect(await harness.run(until: { world.notices(containing: "sync folder back") == 1 }, seconds: 180), "\(harness.notices)")

        // and the folder is watched again: the laptop's later place is seen without being asked
        try world.laptopListens(item: 1, seconds: 5, after: 60)
        #expect(await harness.run(until: { abs((harness.status.elsewhere?.first?.position ?? 0) - 9) < 0.05 }, seconds: 180),
                "\(String(describing: harness.status.elsewhere))")
        #expect(problems().count == 1)
    }

    @Test func aPlaceWrittenOnAnotherComputerReachesThePlayerAsSoonAsSyncthingDeliversIt() async throws {
        // Given a player syncing through its copy of a folder that a real Syncthing pair shares
        // with the laptop's copy
        let pair = try await offThePool { try SyncthingPair() } // seconds of waiting for the two to connect
        let world = try SyncingPlayer(folder: pair.b.folder, laptopFolder: pair.a.folder)
        let harness = world.harness
        try harness.perform(.play(bookId: world.bookId))
        #expect(await harness.runUntilHeard(seconds: 180) { $0.frame > 0 })

        // When the laptop listens later, to 0:09, and writes its journal into its own copy
        try world.laptopListens(item: 1, seconds: 5, after: 60)

        // Then the player sees it once Syncthing has delivered the file (inotify, nothing asked)
        #expect(await harness.run(until: { abs((harness.status.elsewhere?.first?.position ?? 0) - 9) < 0.05 }, seconds: 90),
                "\(String(describing: harness.status.elsewhere))")
        #expect(harness.status.text.contains("elsewhere: laptop 0:09"))
        // (Kept to here: released after its last use, it stopped both instances and deleted their
        // folders while the player was being set up on them: "shared: no such folder".)
        withExtendedLifetime(pair) {}
    }
}

/// A player syncing through a folder (`sync dir`), with a book of two files (4 s and 120 s: the
/// second long enough that a loaded machine pauses it before its end), and another library
/// ("laptop") that imported the same files and writes its journal there.
private struct SyncingPlayer {
    let harness: ControllerHarness
    let bookId: Int64
    let laptop: LibraryDatabase
    let theirBook: Int64
    let theirItems: [Int64]
    let rate: Int64
    /// The player's copy of the sync folder, and the laptop's (the same folder, unless a sync tool carries it).
    let shared: URL
    let laptopFolder: URL
    let laptopDevice = DeviceID("LAPTOP")!

    init(folder: URL? = nil, laptopFolder: URL? = nil) throws {
        // On the test's clock: the book plays only as far as a test advances it, however long a
        // loaded machine keeps the test's task from running (in real time it played on, and a
        // quit after a starved minute saved a place the test did not expect).
        harness = try ControllerHarness(clocked: "sync")
        bookId = try harness.book("Code", itemSeconds: [4, 120])
        laptop = try LibraryDatabase()
        _ = try Importer(library: laptop, inspector: DecoderInspector(decoders: ControllerHarness.registry))
            .importPaths([harness.folder.appending(path: "Code").path])
        theirBook = try laptop.books.book(matching: "Code").id!
        theirItems = try laptop.books.items(ofBook: theirBook).map { $0.id! }
        rate = Int64(try laptop.books.items(ofBook: theirBook)[0].sampleRate)
        shared = try folder ?? BuildProducts.temporaryDirectory("player-sync-folder")
        self.laptopFolder = laptopFolder ?? shared
        guard case let .sync(.folder(settings)) = try harness.perform(.sync(.folder(shared.path))), settings.folder == shared.path else {
            throw PlayerError("sync dir did not answer with the folder")
        }
    }

    /// The laptop listens at `frame` of its item `item`, `after` seconds from now, and exchanges.
    func laptopListens(item: Int, seconds: Int64, after: TimeInterval) throws {
        try laptop.positions.savePosition(bookId: theirBook, mediaId: theirItems[item], frame: seconds * rate, at: Date().addingTimeInterval(after))
        _ = try laptop.sync.exchange(folder: laptopFolder.path, device: laptopDevice, deviceName: "laptop", playing: nil)
    }

    /// Plays the book over and over (its own setting, before it is loaded: however late a loaded
    /// machine is with the engine's events, and it can be minutes, it is still playing when a
    /// test looks) until the engine is heard at a place `heard` takes; false after 180 s.
    func plays(until heard: @escaping (PlaybackPosition) -> Bool) async throws -> Bool {
        var settings = try harness.library.settings.ofBook(bookId)
        settings.repeatMode = .book
        try harness.library.settings.save(settings)
        try harness.perform(.play(bookId: bookId))
        return await harness.runUntilHeard(seconds: 180, heard)
    }

    /// The newest place the player has written to its own journal in the folder.
    func newestPlaceWritten() throws -> SyncChange? {
        let path = SyncJournalFormat.path(of: try harness.library.sync.settings().device, in: shared.path)
        return try SyncJournal.read(path: path).records.last { if case .position = $0.change { true } else { false } }?.change
    }

    /// How many of the player's sync notices contain `text`.
    func notices(containing text: String) -> Int {
        harness.notices.filter { if case let .synced(line) = $0 { line.contains(text) } else { false } }.count
    }

    /// Whether the engine has reported `state` since event `from`.
    func reported(_ state: PlaybackState, from: Int) -> Bool {
        harness.events.dropFirst(from).contains { if case .stateChanged(state) = $0 { true } else { false } }
    }
}
