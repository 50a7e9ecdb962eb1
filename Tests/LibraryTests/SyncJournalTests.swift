import Foundation
import Library
import Testing
import TestSupport

/// The sync journal on real files: what one library writes, another reads back exactly; damaged,
/// cut-short and newer lines are skipped and the rest read; compaction keeps what counts.
@Suite struct SyncJournalTests {
    let laptop = DeviceID("LAPTOP-1")!
    let book = SyncBookIdentity(items: ["1000:00000000000000aa", "2000:00000000000000bb"],
                                title: "War,\tand\nPeace \\ 2", author: "Tolstoy", seconds: 3600.5)

    func at(_ seconds: Double) -> Date { Date(timeIntervalSince1970: 1_764_000_000 + seconds) }

    func folder(_ name: String) throws -> String { try BuildProducts.temporaryDirectory("sync-\(name)").path }

    @Test func whatOneLibraryAppendsAnotherReadsBackExactly() throws {
        // Given a journal written in two appends, with separators and newlines in a title and a note
        let directory = try folder("round-trip")
        let records = [
            SyncRecord(book: book, at: at(1), change: .position(item: book.items[1], frame: 123_456)),
            SyncRecord(book: book, at: at(2), change: .bookmark(SyncBookmark(
                id: "B1", item: book.items[0], frame: 42, kind: .user, note: "a\tnote,\nover two lines", createdAt: at(2)))),
            SyncRecord(book: book, at: at(3), change: .finished(true)),
        ]
        try SyncJournalWriter(folder: directory, device: laptop).append(Array(records[..<2]))
        let later = SyncRecord(book: book, at: at(4), change: .bookmarkRemoved(id: "B1"))
        try SyncJournalWriter(folder: directory, device: laptop).append([records[2], later])

        // When it is read
        let journal = try SyncJournal.read(path: directory + "/LAPTOP-1.abplayer-journal")

        // Then every record is there as written, from the device that wrote it, and the book is defined once
        #expect(journal.device == laptop)
        #expect(journal.records == records + [later])
        #expect(journal.damagedLines.isEmpty && journal.notUnderstood == 0)
        let text = try String(contentsOfFile: directory + "/LAPTOP-1.abplayer-journal", encoding: .utf8)
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("B\t") }.count == 1)
        #expect(text.split(separator: "\n").count == 1 + 1 + 4)
    }

    @Test func damagedAndCutShortLinesAreSkippedAndTheRestIsRead() throws {
        // Given a journal with a damaged line in the middle and a last line cut short by a crash
        let ref = SyncJournalFormat.reference(of: book)
        var journal = SyncJournalFormat.header(device: laptop)
        journal += "B\t\(ref)\tWar\tTolstoy\t\t1000:00000000000000aa\n"
        journal += "P\t\(ref)\t1764000000000\t0\t100\n"
        journal += "P\t\(ref)\tnot-a-time\t0\t200\n"
        journal += "P\tno-such-book\t1764000000000\t0\t300\n"
        journal += "M\t\(ref)\t1764000001000\tB1\t0\t5\tuser\t1764000001000\tbad \\q escape\n"
        journal += "P\t\(ref)\t1764000001500\t1\t350\n" // the book has one item
        journal += "P\t\(ref)\t1764000002000\t0\t400\n"
        journal += "P\t\(ref)\t1764000003000\t0\t5"

        // When it is read
        let read = try #require(SyncJournal.parse(Array(journal.utf8)))

        // Then the good lines are there and each bad one is counted by its line number
        let frames = read.records.compactMap { if case let .position(_, frame) = $0.change { frame } else { nil } }
        #expect(frames == [100, 400])
        #expect(read.damagedLines == [4, 5, 6, 7, 9])
    }

    @Test func aNewerWritersJournalIsReadAsFarAsItIsUnderstood() throws {
        // Given a version 3 journal with a tag this version does not know and a field added at a line's end
        let ref = SyncJournalFormat.reference(of: book)
        let journal = "abplayer-journal\t3\tDESKTOP\textra\n"
            + "B\t\(ref)\tWar\t\t\t1000:00000000000000aa\tnew-field\n"
            + "Q\t\(ref)\t1764000000000\tsomething new\n"
            + "F\t\(ref)\t1764000000000\t1\tnew-field\n"

        // When it is read
        let read = try #require(SyncJournal.parse(Array(journal.utf8)))

        // Then what this version knows is read, and the rest skipped without calling it damaged
        #expect(read.version == 3 && read.device == DeviceID("DESKTOP"))
        #expect(read.records.map(\.change) == [.finished(true)])
        #expect(read.records.first?.book.author == nil && read.records.first?.book.seconds == nil)
        #expect(read.notUnderstood == 1 && read.damagedLines.isEmpty)
    }

    @Test func aFileThatIsNotAJournalIsRefusedWhole() throws {
        let directory = try folder("not-a-journal")
        let path = directory + "/X.abplayer-journal"
        try Data("{\"json\": true}\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: SyncJournalError.notAJournal(path: path)) { try SyncJournal.read(path: path) }
        #expect(DeviceID("../etc") == nil && DeviceID("") == nil && DeviceID("A B") == nil)
        #expect(DeviceID.random().text.count == 14)
    }

    @Test func aGrowingJournalIsCompactedToWhatStillCounts() throws {
        // Given a journal that compacts past 64 KiB, fed a place a second for two hours and bookmarks edited and removed
        let directory = try folder("compaction")
        let writer = try SyncJournalWriter(folder: directory, device: laptop, compactionBytes: 64 * 1024)
        let mark = { (id: String, note: String, time: Double) in
            SyncRecord(book: self.book, at: self.at(time), change: .bookmark(SyncBookmark(
                id: id, item: self.book.items[0], frame: 7, kind: .user, note: note, createdAt: self.at(0))))
        }
        try writer.append([mark("kept", "first", 0), mark("gone", "soon removed", 0)])
        for second in 1...7200 {
            try writer.append([SyncRecord(book: book, at: at(Double(second)), change: .position(item: book.items[1], frame: Int64(second) * 44100))])
        }
        try writer.append([mark("kept", "edited", 7201), SyncRecord(book: book, at: at(7202), change: .bookmarkRemoved(id: "gone"))])
        try writer.compact()

        // When it is read
        let path = directory + "/LAPTOP-1.abplayer-journal"
        let journal = try SyncJournal.read(path: path)

        // Then it is small, and it says what the whole history said
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size < 2048)
        let merged = SyncMergeRules.merge([journal]) { _ in 1 }
        let state = try #require(merged[1])
        #expect(state.positions.map(\.frame) == [7200 * 44100])
        #expect(state.bookmarks.map(\.note) == ["edited"])
        #expect(state.removedBookmarks == ["gone"])
        // and appending after a compaction goes on from there
        try writer.append([SyncRecord(book: book, at: at(7300), change: .finished(true))])
        #expect(try SyncJournal.read(path: path).records.last?.change == .finished(true))
    }

    @Test func aLargeLibrarysJournalPastTheLimitIsRewrittenOnlyOnceHalfOfItNoLongerCounts() throws {
        // Given a journal with a 4 KiB limit, holding the places of 100 books (past the limit, all still counting)
        let directory = try folder("large-library")
        let writer = try SyncJournalWriter(folder: directory, device: laptop, compactionBytes: 4096)
        let books = (0..<100).map { n in SyncBookIdentity(items: ["\(n):00000000000000aa"], title: "Book \(n)", author: nil, seconds: 60) }
        let place = { (book: SyncBookIdentity, second: Double) in
            SyncRecord(book: book, at: self.at(second), change: .position(item: book.items[0], frame: Int64(second) * 44100))
        }
        try writer.append(books.map { place($0, 1) })
        let path = directory + "/LAPTOP-1.abplayer-journal"
        func size() throws -> Int { try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) }
        let full = try size()
        #expect(full > 4096)

        // When 60 of them are listened to again, one append each
        for book in books.prefix(60) { try writer.append([place(book, 2)]) }

        // Then nothing was rewritten: the file only grew (a rewrite would copy it whole at every append)
        #expect(try size() > full && SyncJournal.read(path: path).entries.count == 160)

        // When the other 40 are, so that half of its records no longer count
        for book in books.dropFirst(60) { try writer.append([place(book, 2)]) }

        // Then it is compacted, to one place a book, each the newest
        let compacted = try SyncJournal.read(path: path)
        #expect(compacted.entries.count == 100)
        #expect(try size() < full + 200)
        let merged = SyncMergeRules.merge([compacted]) { book in Int64(book.title.dropFirst(5)) }
        #expect(merged[0]?.positions.map(\.frame) == [2 * 44100] && merged[99]?.positions.map(\.frame) == [2 * 44100])
    }

    /// What the 50 MB test saw, worked out off the cooperative pool (half a minute of parsing in a
    /// debug build) and checked on the test's own task.
    struct FiftyMegabytes: Sendable {
        var size = 0, repeats = 0, problems: [String] = [], entries: [Int] = [], newest: [PositionClaim]?
        var compactedSize = 0, compacted: MergedBook?
    }

    @Test func aFiftyMegabyteJournalIsReadWholeAndCompactedAtItsWritersNextAppend() async throws {
        // Given a stereo's journal that was never compacted: a day of a place a second, written
        // once and repeated to about 50 MB, then one place later than all of them
        let directory = try folder("fifty-megabytes")
        let stereo = DeviceID("STEREO")!
        let path = directory + "/STEREO.abplayer-journal"
        let (day, book) = (86_400, book)
        let seconds = day + 1
        let at = { @Sendable (second: Int) in Date(timeIntervalSince1970: 1_764_000_000 + Double(second)) }
        let laptop = laptop
        let seen = try await offThePool {
            var seen = FiftyMegabytes()
            try SyncJournalWriter(folder: directory, device: stereo, compactionBytes: .max).append((1...day).map { second in
                SyncRecord(book: book, at: at(second), change: .position(item: book.items[second % 2], frame: Int64(second) * 441))
            })
            let written = try Data(contentsOf: URL(fileURLWithPath: path))
            guard let lastHeaderLine = written.indices.filter({ written[$0] == 0x0A }).dropFirst(1).first else { return seen }
            let firstRecord = lastHeaderLine + 1 // after the header and the B line
            guard let handle = FileHandle(forWritingAtPath: path) else { return seen }
            handle.seekToEndOfFile()
            seen.repeats = 50_000_000 / (written.count - firstRecord)
            for _ in 0..<seen.repeats { handle.write(written[firstRecord...]) }
            try handle.close()
            try SyncJournalWriter(folder: directory, device: stereo, compactionBytes: .max).append([
                SyncRecord(book: book, at: at(seconds), change: .position(item: book.items[seconds % 2], frame: Int64(seconds) * 441)),
            ])
            seen.size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0

            // When the laptop reads the folder
            let contents = SyncFolder.read(directory, excluding: laptop)
            seen.problems = contents?.problems ?? ["not read"]
            seen.entries = contents?.journals.map(\.recordCount) ?? []
            seen.newest = SyncMergeRules.merge(contents?.journals ?? []) { _ in 1 }[1]?.positions

            // When the stereo appends once more with the usual limit (1 MiB)
            try SyncJournalWriter(folder: directory, device: stereo).append([SyncRecord(book: book, at: at(seconds + 1), change: .finished(true))])
            seen.compactedSize = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
            seen.compacted = SyncMergeRules.merge([try SyncJournal.read(path: path)]) { _ in 1 }[1]
            return seen
        }
        #expect(seen.size > 50_000_000)

        // Then every line is read, nothing is damaged, and the newest place is the last one written
        #expect(seen.problems.isEmpty)
        #expect(seen.entries == [day * (seen.repeats + 1) + 1])
        #expect(seen.newest?.map(\.frame) == [Int64(seconds) * 441] && seen.newest?.map(\.item) == [book.items[seconds % 2]])

        // and after the append its journal is compacted to what still counts
        #expect(seen.compactedSize < 2048)
        #expect(seen.compacted?.positions.map(\.frame) == [Int64(seconds) * 441] && seen.compacted?.finished?.value == true)
    }
}
