import Foundation
import Library
import Testing
import TestSupport

/// Two libraries of the same books at different paths exchanging through one folder, read back
/// from their SQLite files: places, bookmarks and finished marks travel both ways; the later
/// listening wins; the book playing is never moved; a sync jump leaves an undo point.
@Suite struct SyncExchangeTests {
    struct Pair {
        let here: LibraryDatabase
        let there: LibraryDatabase
        let folder: String
        let hereDevice = DeviceID("HERE")!
        let thereDevice = DeviceID("THERE")!
        /// War in each library, and its items' media ids.
        let war: Int64
        let theirWar: Int64
        let warItems: [Int64]
        let theirWarItems: [Int64]

        @discardableResult
        func exchangeHere(playing: Int64? = nil, now: Date = Date()) throws -> SyncExchangeReport {
            try here.sync.exchange(folder: folder, device: hereDevice, playing: playing, now: now)
        }

        @discardableResult
        func exchangeThere(playing: Int64? = nil, now: Date = Date()) throws -> SyncExchangeReport {
            try there.sync.exchange(folder: folder, device: thereDevice, playing: playing, now: now)
        }
    }

    /// Two libraries in SQLite files of their own (`path` reopens one to read it back).
    func pair(_ name: String) throws -> Pair {
        let files = try BuildProducts.temporaryDirectory("exchange-\(name)-libraries").path
        let here = try LibraryDatabase(path: files + "/here.sqlite")
        _ = try importer(here).importPaths([try Fixtures.audiobookTree().path])
        let there = try LibraryDatabase(path: files + "/there.sqlite")
        _ = try importer(there).importPaths([try copyOfAudiobookTree("exchange-\(name)").path])
        let war = try here.books.book(matching: "War").id!
        let theirWar = try there.books.book(matching: "War").id!
        return Pair(here: here, there: there, folder: try BuildProducts.temporaryDirectory("exchange-\(name)-folder").path,
                    war: war, theirWar: theirWar, warItems: try here.books.items(ofBook: war).map { $0.id! },
                    theirWarItems: try there.books.items(ofBook: theirWar).map { $0.id! })
    }

    let hourAgo = Date().addingTimeInterval(-3600)

    @Test func theLaterListeningMovesTheOtherLibraryAndLeavesAnUndoPoint() throws {
        // Given War listened to here half an hour ago, and there an hour ago at another place
        let p = try pair("later")
        try p.there.positions.savePosition(bookId: p.theirWar, mediaId: p.theirWarItems[0], frame: 1000, at: hourAgo)
        try p.here.positions.savePosition(bookId: p.war, mediaId: p.warItems[1], frame: 22_050, at: hourAgo.addingTimeInterval(1800))

        // When each exchanges (there twice: before and after here wrote)
        try p.exchangeThere()
        let wrote = try p.exchangeHere()
        let report = try p.exchangeThere()

        // Then there is where here was, told so, with an undo point where it was before
        #expect(wrote.written >= 1 && report.moved.map(\.bookId) == [p.theirWar])
        let moved = try #require(try p.there.positions.ofBook(p.theirWar))
        #expect(moved.mediaId == p.theirWarItems[1] && moved.frame == 22_050)
        let undo = try p.there.bookmarks.all(ofBook: p.theirWar).filter { $0.kind == .beforeSyncJump }
        #expect(undo.map(\.frame) == [1000] && undo.map(\.mediaId) == [p.theirWarItems[0]])
        // and here, whose listening was the later, did not move
        try p.exchangeHere()
        #expect(try p.here.positions.ofBook(p.war)?.frame == 22_050)
        #expect(try p.here.bookmarks.all(ofBook: p.war).filter { $0.kind == .beforeSyncJump }.isEmpty)
    }

    @Test func aDeviceWhoseClockIsTenMinutesAheadIsUsedButDoesNotBeatListeningHere() throws {
        // Given there's clock running ten minutes ahead of here's: it listens to War and to the
        // Master "now" by its clock; here listened to War two minutes ago, and never to the Master
        let p = try pair("skew")
        let now = Date()
        let theirNow = now.addingTimeInterval(600)
        let master = try p.here.books.book(matching: "Мастер").id!
        let theirMaster = try p.there.books.book(matching: "Мастер").id!
        try p.here.positions.savePosition(bookId: p.war, mediaId: p.warItems[1], frame: 22_050, at: now.addingTimeInterval(-120))
        try p.there.positions.savePosition(bookId: p.theirWar, mediaId: p.theirWarItems[0], frame: 1000, at: theirNow)
        try p.there.positions.savePosition(bookId: theirMaster, mediaId: try p.there.books.items(ofBook: theirMaster)[1].id!, frame: 4410, at: theirNow)
        try p.exchangeThere(now: theirNow)

        // When here exchanges, by its own clock
        let report = try p.exchangeHere(now: now)

        // Then War stays where here listened (a place dated in the future does not beat it), and
        // the Master, which here never listened to, takes there's place
        #expect(try p.here.positions.ofBook(p.war)?.frame == 22_050)
        #expect(report.moved.map(\.bookId) == [master])
        #expect(try p.here.positions.ofBook(master)?.mediaId == p.here.books.items(ofBook: master)[1].id
                && p.here.positions.ofBook(master)?.frame == 4410)
        // and there, by its clock, stays where it listened last
        let back = try p.exchangeThere(now: theirNow)
        #expect(back.moved.isEmpty)
        #expect(try p.there.positions.ofBook(p.theirWar)?.frame == 1000)
    }

    @Test func theBookPlayingIsNeverMovedButTheLaterPlaceIsOffered() throws {
        let p = try pair("playing")
        try p.there.positions.savePosition(bookId: p.theirWar, mediaId: p.theirWarItems[0], frame: 1000, at: hourAgo)
        try p.here.positions.savePosition(bookId: p.war, mediaId: p.warItems[1], frame: 22_050, at: Date())
        try p.exchangeHere()

        let report = try p.exchangeThere(playing: p.theirWar)

        #expect(report.moved.isEmpty && report.waiting?.claim.device == p.hereDevice && report.waiting?.claim.frame == 22_050)
        #expect(try p.there.positions.ofBook(p.theirWar)?.frame == 1000)
    }

    @Test func bookmarksAreMadeEditedAndRemovedOnBothSides() throws {
        let p = try pair("bookmarks")
        // A bookmark made there reaches here
        let made = try p.there.bookmarks.add(bookId: p.theirWar, mediaId: p.theirWarItems[0], frame: 4410, kind: .user, note: "the duel")
        _ = try p.there.bookmarks.add(bookId: p.theirWar, mediaId: p.theirWarItems[0], frame: 10, kind: .beforeSeek)
        try p.exchangeThere()
        #expect(try p.exchangeHere().bookmarksAdded == 1)
        let arrived = try #require(try p.here.bookmarks.all(ofBook: p.war).first { $0.kind == .user })
        #expect(arrived.note == "the duel" && arrived.frame == 4410 && arrived.mediaId == p.warItems[0])
        // automatic bookmarks are this device's own undo points: they never travel
        #expect(try p.here.bookmarks.all(ofBook: p.war).allSatisfy { $0.kind == .user })

        // Its note edited here reaches there, and passing it on again changes nothing
        try p.here.bookmarks.updateNote(id: arrived.id!, note: "the duel at dawn")
        try p.exchangeHere()
        #expect(try p.exchangeThere().bookmarksChanged == 1)
        #expect(try p.there.bookmarks.bookmark(id: made.id!)?.note == "the duel at dawn")
        try p.exchangeHere()
        try p.exchangeThere()
        #expect(try p.there.bookmarks.bookmark(id: made.id!)?.note == "the duel at dawn")

        // Removed there, it is removed here
        try p.there.bookmarks.delete(id: made.id!)
        try p.exchangeThere()
        #expect(try p.exchangeHere().bookmarksRemoved == 1)
        #expect(try p.here.bookmarks.all(ofBook: p.war).isEmpty)
    }

    @Test func aFinishedMarkTravelsAndDoesNotFlipBack() throws {
        let p = try pair("finished")
        try p.here.positions.markFinished(bookId: p.war)
        try p.exchangeHere()
        #expect(try p.exchangeThere().finishedChanged == 1)
        #expect(try p.there.books.book(matching: "War").finishedAt != nil)
        for _ in 0..<2 {
            try p.exchangeHere()
            try p.exchangeThere()
        }
        #expect(try p.here.books.book(matching: "War").finishedAt != nil && (try p.there.books.book(matching: "War").finishedAt) != nil)
        // Played again there: not finished any more here either
        try p.there.positions.markUnfinished(bookId: p.theirWar, at: Date().addingTimeInterval(1))
        try p.exchangeThere()
        try p.exchangeHere()
        #expect(try p.here.books.book(matching: "War").finishedAt == nil)
    }

    @Test func aMissingFolderIsOneClearErrorAndADamagedJournalIsSkippedWithAWarning() throws {
        let p = try pair("bad")
        #expect(throws: LibraryError.self) {
            try p.here.sync.exchange(folder: p.folder + "/gone", device: p.hereDevice, playing: nil)
        }
        try Data("not a journal\n".utf8).write(to: URL(fileURLWithPath: p.folder + "/BROKEN.abplayer-journal"))
        try p.here.positions.savePosition(bookId: p.war, mediaId: p.warItems[1], frame: 777, at: Date())
        try p.exchangeHere()
        let report = try p.exchangeThere()
        #expect(report.problems.count == 1 && report.problems[0].contains("BROKEN.abplayer-journal"))
        #expect(try p.there.positions.ofBook(p.theirWar)?.frame == 777)
    }
}
