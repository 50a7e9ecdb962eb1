import Foundation
import Library
import Testing
import TestSupport

/// The sync merge rules: the most recent listening wins the place (ties by device id),
/// a clock ahead of ours never beats listening done here, bookmarks merge as a set with removals
/// winning, and books are matched by content, then by title, author and length.
@Suite struct SyncMergeTests {
    let here = DeviceID("HERE")!
    let laptop = DeviceID("LAPTOP")!
    let stereo = DeviceID("STEREO")!
    let book = SyncBookIdentity(items: ["1:00000000000000aa"], title: "Dune", author: "Herbert", seconds: 100)
    let now = Date(timeIntervalSince1970: 1_764_000_000)

    func claim(_ device: DeviceID, _ minutesAgo: Double, frame: Int64) -> PositionClaim {
        PositionClaim(device: device, listenedAt: now.addingTimeInterval(-60 * minutesAgo), item: book.items[0], frame: frame)
    }

    @Test func theMostRecentListeningWinsThePlaceAndTiesGoToTheGreaterDevice() {
        let rules = SyncMergeRules(local: here, now: now)
        #expect(rules.winningPosition([claim(here, 30, frame: 1), claim(laptop, 10, frame: 2), claim(stereo, 20, frame: 3)])?.frame == 2)
        #expect(rules.winningPosition([claim(laptop, 10, frame: 2), claim(stereo, 10, frame: 3)])?.device == stereo)
        #expect(rules.winningPosition([]) == nil)
    }

    @Test func aClockAheadOfOursIsUsedButNeverBeatsListeningHere() {
        let rules = SyncMergeRules(local: here, now: now, futureTolerance: 5 * 60)
        let future = claim(laptop, -10, frame: 9)     // ten minutes from now by our clock
        let slightlyAhead = claim(laptop, -2, frame: 8) // within the tolerance: trusted
        #expect(rules.winningPosition([claim(here, 60, frame: 1), future])?.frame == 1)
        #expect(rules.winningPosition([claim(stereo, 60, frame: 1), future])?.frame == 9)
        #expect(rules.winningPosition([claim(here, 60, frame: 1), slightlyAhead])?.frame == 8)
    }

    @Test func bookmarksMergeAsASetWithEditsByTimeAndRemovalsWinning() {
        func mark(_ id: String, _ note: String) -> SyncChange {
            .bookmark(SyncBookmark(id: id, item: book.items[0], frame: 5, kind: .user, note: note, createdAt: now))
        }
        func record(_ device: DeviceID, _ seconds: Double, _ change: SyncChange) -> DeviceRecord {
            DeviceRecord(device: device, record: SyncRecord(book: book, at: now.addingTimeInterval(seconds), change: change))
        }
        // Given bookmarks made on two devices, edited on both, and one removed before a late edit reached it
        let records = [
            record(laptop, 1, mark("A", "made on the laptop")),
            record(stereo, 2, mark("B", "made on the stereo")),
            record(stereo, 3, mark("A", "edited on the stereo")),
            record(laptop, 5, .bookmarkRemoved(id: "B")),
            record(stereo, 9, mark("B", "edited after the removal")),
            record(laptop, 4, .finished(true)),
            record(stereo, 6, .finished(false)),
        ]

        // When they are merged, in either order
        let merged = SyncMergeRules.merge(records) { $0 == book ? 1 : nil }
        let reversed = SyncMergeRules.merge(records.reversed()) { $0 == book ? 1 : nil }

        // Then A says its newest note, B stays removed, the newest finished mark wins, and order does not matter
        let state = merged[1]
        #expect(state?.bookmarks.map(\.note) == ["edited on the stereo"])
        #expect(state?.removedBookmarks == ["B"])
        #expect(state?.finished?.value == false)
        #expect(merged == reversed)
    }

    @Test func booksAreMatchedByContentThenByTitleAuthorAndLength() throws {
        // Given the same books in two libraries at different paths
        let here = try LibraryDatabase()
        _ = try importer(here).importPaths([try Fixtures.audiobookTree().path])
        let there = try LibraryDatabase()
        _ = try importer(there).importPaths([try copyOfAudiobookTree("sync-identity").path])
        let war = try here.books.book(matching: "War")

        // When the other library looks for this one's book
        let identity = try here.sync.identity(ofBook: war.id!)
        let found = try there.sync.bookId(matching: identity)

        // Then it finds its own copy; by title, author and length when the files differ; and nothing when the length is another
        #expect(found == (try there.books.book(matching: "War").id))
        var retagged = identity
        retagged.items = identity.items.map { $0 + "0" }
        #expect(try there.sync.bookId(matching: retagged) == found)
        var abridged = retagged // another edition: a minute longer
        abridged.seconds = try #require(identity.seconds) + 60
        #expect(try there.sync.bookId(matching: abridged) == nil)
        #expect(try there.sync.bookId(matching: SyncBookIdentity(items: ["9:ffffffffffffffff"], title: "Nothing", author: nil, seconds: 1)) == nil)
    }
}
