import Foundation
import Library
import Testing
import TestSupport

/// A sync folder's journals read as an exchange reads them (`SyncFolder.read`): of each book only
/// what counts is kept, and a book line seen in another journal is taken again only when it is
/// the same line. Checked against each journal read alone, whole, and merged the same way.
@Suite struct SyncFolderReadTests {
    func at(_ seconds: Double) -> Date { Date(timeIntervalSince1970: 1_764_000_000 + seconds) }

    func book(_ number: Int) -> SyncBookIdentity {
        SyncBookIdentity(items: ["\(number)000:00000000000000aa", "\(number)000:00000000000000bb"], title: "Book \(number)",
                         author: nil, seconds: 7200)
    }

    @Test func aJournalReadFromTheFolderKeepsEachBooksNewestPlaceAndMergesAsTheWholeFileDoes() throws {
        // Given a device's journal not compacted yet: ten places for each of three books, written
        // day after day with the books in turn (a record seldom follows its book's line), a
        // finished mark changed twice, and a bookmark; and a second device naming the same books
        let directory = try BuildProducts.temporaryDirectory("sync-folder-read").path
        let laptop = DeviceID("LAPTOP")!, phone = DeviceID("PHONE")!
        var records: [SyncRecord] = []
        for day in 0..<10 {
            for number in 0..<3 {
                // Book 1's newest place is written first on the last day, the later ones dated earlier.
                let time = Double(day * 100 + (number == 1 ? 50 : number))
                records.append(SyncRecord(book: book(number), at: at(time), change: .position(item: book(number).items[day % 2], frame: Int64(day * 1000 + number))))
            }
        }
        records.append(SyncRecord(book: book(2), at: at(2000), change: .finished(true)))
        records.append(SyncRecord(book: book(2), at: at(1000), change: .finished(false)))
        records.append(SyncRecord(book: book(0), at: at(3000), change: .bookmark(SyncBookmark(
            id: "M1", item: book(0).items[1], frame: 5, kind: .user, note: "here", createdAt: at(3000)))))
        try SyncJournalWriter(folder: directory, device: laptop, compactionBytes: .max).append(records)
        try SyncJournalWriter(folder: directory, device: phone, compactionBytes: .max).append((0..<3).reversed().map {
            SyncRecord(book: book($0), at: at(5), change: .position(item: book($0).items[0], frame: 7))
        })

        // When the folder is read as an exchange reads it, and each file alone, whole
        let contents = try #require(SyncFolder.read(directory, excluding: nil))
        let fromFolder = try #require(contents.journals.first { $0.device == laptop })
        let whole = try SyncJournal.read(path: directory + "/LAPTOP.abplayer-journal")

        // Then the folder's copy holds each book's newest place and mark and the bookmark, having read every record
        #expect(whole.keepsEveryRecord && whole.entries.count == records.count)
        #expect(!fromFolder.keepsEveryRecord && fromFolder.recordCount == records.count)
        #expect(fromFolder.entries.count == 3 + 1 + 1)
        let places = Dictionary(fromFolder.records.compactMap { record -> (String, Int64)? in
            if case let .position(_, frame) = record.change { (record.book.title, frame) } else { nil }
        }, uniquingKeysWith: { a, _ in a })
        #expect(places == ["Book 0": 9000, "Book 1": 9001, "Book 2": 9002])
        #expect(fromFolder.records.contains { $0.change == .finished(true) } && !fromFolder.records.contains { $0.change == .finished(false) })

        // And merged, the folder's journals say what the whole files say, each device's place in its own book
        let key: (SyncBookIdentity) -> Int64? = { Int64($0.title.dropFirst(5)) }
        let phoneWhole = try SyncJournal.read(path: directory + "/PHONE.abplayer-journal")
        let merged = SyncMergeRules.merge(contents.journals, key: key)
        #expect(merged == SyncMergeRules.merge([whole, phoneWhole], key: key))
        for number in 0..<3 {
            let claims = try #require(merged[Int64(number)]?.positions)
            #expect(claims.first { $0.device == phone }?.frame == 7 && claims.first { $0.device == laptop }?.frame == Int64(9000 + number))
        }
        #expect(merged[0]?.bookmarks.map(\.id) == ["M1"] && merged[2]?.finished?.value == true)
    }

    @Test func aBookLineLikeAnotherJournalsButNotTheSameIsReadAsItsOwnBook() throws {
        // Given two devices naming two books in turn, in other orders, and a third whose line for
        // book 1 has the same reference but another title (a library that renamed it)
        let directory = try BuildProducts.temporaryDirectory("sync-folder-lines").path
        let devices = ["A", "B", "C"].map { DeviceID($0)! }
        let renamed = SyncBookIdentity(items: book(1).items, title: "Book 1, renamed", author: nil, seconds: 7200)
        let reference = SyncJournalFormat.reference(of: book(1))
        for (index, device) in devices.enumerated() {
            var text = SyncJournalFormat.header(device: device)
            let order = index == 1 ? [1, 0] : [0, 1]
            for number in order {
                let identity = index == 2 && number == 1 ? renamed : book(number)
                let lineReference = number == 1 ? reference : SyncJournalFormat.reference(of: identity)
                text += "B\t\(lineReference)\t\(identity.title)\t\t7200.000\t\(identity.items.joined(separator: ","))\n"
            }
            for number in order {
                text += "P\t\(number == 1 ? reference : SyncJournalFormat.reference(of: book(number)))\t\(1_764_000_000_000 + index)\t1\t\(index * 10 + number)\n"
            }
            try text.write(toFile: directory + "/\(device.text).abplayer-journal", atomically: true, encoding: .utf8)
        }

        // When the folder is read
        let contents = try #require(SyncFolder.read(directory, excluding: nil))

        // Then each journal's places are in the books its own lines define
        for (index, device) in devices.enumerated() {
            let journal = try #require(contents.journals.first { $0.device == device })
            let places = journal.records.compactMap { record -> String? in
                if case let .position(_, frame) = record.change { "\(record.book.title)=\(frame)" } else { nil }
            }.sorted()
            let bookOne = index == 2 ? "Book 1, renamed" : "Book 1"
            #expect(places == ["Book 0=\(index * 10)", "\(bookOne)=\(index * 10 + 1)"].sorted(), "\(device)")
        }
    }

    @Test func aNumberTooBigForAnyTimeOrPlaceIsADamagedLineAndTheRestIsRead() throws {
        // Given another device's journal whose times, items and frames have 19 digits (more than
        // the player's numbers hold: such a line stopped the player), beside good lines
        let directory = try BuildProducts.temporaryDirectory("sync-folder-numbers").path
        let reference = SyncJournalFormat.reference(of: book(0))
        var text = SyncJournalFormat.header(device: DeviceID("EVIL")!)
        text += "B\t\(reference)\tBook 0\t\t7200.000\t\(book(0).items.joined(separator: ","))\n"
        text += "P\t\(reference)\t9999999999999999999\t0\t5\n"
        text += "P\t\(reference)\t1764000000000\t9999999999999999999\t5\n"
        text += "P\t\(reference)\t1764000000000\t0\t-9999999999999999999\n"
        text += "F\t\(reference)\t99999999999999999999\t1\n"
        text += "M\t\(reference)\t1764000000000\tM1\t0\t5\tuser\t9999999999999999999\tnote\n"
        // (18 digits fit; a time that far ahead is damaged too, SyncHostileFolderTests: the frame is read)
        text += "P\t\(reference)\t1764000000000\t1\t999999999999999999\n"
        try text.write(toFile: directory + "/EVIL.abplayer-journal", atomically: true, encoding: .utf8)

        // When it is read from the folder, and alone
        let contents = try #require(SyncFolder.read(directory, excluding: nil))
        let fromFolder = try #require(contents.journals.first)
        let alone = try SyncJournal.read(path: directory + "/EVIL.abplayer-journal")

        // Then each of those lines is damaged, and the place with 18 digits is read
        for journal in [fromFolder, alone] {
            #expect(journal.damagedLines == [3, 4, 5, 6, 7])
            #expect(journal.records.map(\.change) == [.position(item: book(0).items[1], frame: 999_999_999_999_999_999)])
        }
        #expect(contents.problems == ["\(directory)/EVIL.abplayer-journal: 5 damaged lines skipped (the first is line 3)"])
    }
}
