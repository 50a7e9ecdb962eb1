import Foundation
import Library
import Testing
import TestSupport

/// A computer's name in the sync folder: given with `sync name`, said in its journal by an `N`
/// line (version 2) that a version 1 journal never has, kept by compaction, checked as typed and
/// bounded as read.
@Suite struct SyncDeviceNameTests {
    let laptop = DeviceID("LAPTOP-1")!
    let book = SyncBookIdentity(items: ["1000:00000000000000aa"], title: "War", author: nil, seconds: 60)

    func at(_ seconds: Double) -> Date { Date(timeIntervalSince1970: 1_764_000_000 + seconds) }

    @Test func theNewestNameLineNamesTheComputerAndAVersionOneJournalKeepsItsHeadersName() throws {
        // Given a version 1 journal (its name in its header), and the same with two N lines after, the later first
        let ref = SyncJournalFormat.reference(of: book)
        let version1 = "abplayer-journal\t1\tLAPTOP-1\tvm\n" + "B\t\(ref)\tWar\t\t60.000\t1000:00000000000000aa\n"
            + "P\t\(ref)\t1764000000000\t0\t100\n"
        let renamed = version1 + "N\t1764000002000\tlaptop\n" + "N\t1764000001000\tkitchen\n" + "N\tnot-a-time\tbad\n"

        // When each is read
        let old = try #require(SyncJournal.parse(Array(version1.utf8)))
        let new = try #require(SyncJournal.parse(Array(renamed.utf8)))

        // Then the old one is read whole under its header's name, and the new one has the newest name
        #expect(old.deviceName == "vm" && old.records.count == 1 && old.damagedLines.isEmpty && old.notUnderstood == 0)
        #expect(new.deviceName == "laptop" && new.records.count == 1 && new.damagedLines == [6])
    }

    @Test func aRenameIsAppendedAndCompactionKeepsTheNameInTheHeader() throws {
        // Given a journal written as "vm", then renamed "laptop" with a place
        let directory = try BuildProducts.temporaryDirectory("sync-rename").path
        try SyncJournalWriter(folder: directory, device: laptop, name: "vm")
            .append([SyncRecord(book: book, at: at(1), change: .position(item: book.items[0], frame: 10))])
        let writer = try SyncJournalWriter(folder: directory, device: laptop, name: "laptop")
        try writer.append([SyncRecord(book: book, at: at(2), change: .position(item: book.items[0], frame: 20))], renamed: at(2))
        let path = SyncJournalFormat.path(of: laptop, in: directory)

        // When it is read, and read again after a compaction
        let appended = try SyncJournal.read(path: path)
        try writer.compact()
        let compacted = try SyncJournal.read(path: path)
        let text = try String(contentsOfFile: path, encoding: .utf8)

        // Then both say laptop, the compacted one in its header with no N line left
        #expect(appended.deviceName == "laptop" && compacted.deviceName == "laptop")
        #expect(text.hasPrefix("abplayer-journal\t\(SyncJournalFormat.version)\tLAPTOP-1\tlaptop\n") && !text.contains("\nN\t"), "\(text)")
    }

    @Test func aNameIsTrimmedAndRefusedWhenEmptyOrTooLongAndANameReadIsBounded() throws {
        // Given a library
        let library = try LibraryDatabase()

        // When it is named with spaces around, then the name is trimmed
        #expect(try library.sync.setDeviceName("  den \t").deviceName == "den")

        // When the name is empty or too long, then it is refused and the name stays
        #expect(throws: LibraryError.self) { try library.sync.setDeviceName("   ") }
        #expect(throws: LibraryError.self) { try library.sync.setDeviceName(String(repeating: "x", count: DeviceName.maximumLength + 1)) }
        #expect(try library.sync.settings().deviceName == "den")

        // When another machine's journal names itself at length, then only the longest a name may be is kept
        let long = String(repeating: "y", count: 5000)
        let journal = try #require(SyncJournal.parse(Array("abplayer-journal\t2\tLAPTOP-1\t\(long)\n".utf8)))
        #expect(journal.deviceName?.count == DeviceName.maximumLength)
    }
}
