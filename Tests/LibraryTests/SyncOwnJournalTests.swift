import Foundation
import GRDB
import Library
import Testing
import TestSupport

/// This device's own journal, the one file abplayer writes in a folder other machines (and
/// anyone who can write to the share) write too: never written through a link planted under its
/// name, never a named pipe waited on, and an append cut short by a full disk leaves the journal
/// as it was, so the place it carried is written whole at the next exchange.
@Suite struct SyncOwnJournalTests {
    let device = DeviceID("HERE")!

    /// A library of the audiobook tree with a place in War, syncing through `folder`.
    struct Syncing: Sendable {
        let library: LibraryDatabase
        let war: Int64
        let warItems: [Int64]
        let folder: String
        let journal: String
    }

    func syncing(_ name: String, folder: String? = nil) throws -> Syncing {
        let files = try BuildProducts.temporaryDirectory("own-journal-\(name)").path
        let library = try LibraryDatabase(path: files + "/library.sqlite")
        _ = try importer(library).importPaths([try Fixtures.audiobookTree().path])
        let war = try library.books.book(matching: "War").id!
        let items = try library.books.items(ofBook: war).map { $0.id! }
        try library.positions.savePosition(bookId: war, mediaId: items[0], frame: 1000)
        let folder = try folder ?? BuildProducts.temporaryDirectory("own-journal-\(name)-folder").path
        return Syncing(library: library, war: war, warItems: items, folder: folder,
                       journal: SyncJournalFormat.path(of: device, in: folder))
    }

    func exchange(_ s: Syncing) throws -> SyncExchangeReport {
        try s.library.sync.exchange(folder: s.folder, device: device, playing: nil)
    }

    @Test func aLinkPlantedUnderThisDevicesJournalNameIsNeverWrittenThroughUntilRepaired() throws {
        // Given a file of the listener's outside the folder, and links to it and to a file that
        // does not exist yet planted under this device's journal name
        let s = try syncing("link")
        let outside = try BuildProducts.temporaryDirectory("own-journal-outside")
        let bashrc = outside.appending(path: "bashrc").path
        try Data("alias ls='ls -F'\n".utf8).write(to: URL(fileURLWithPath: bashrc))
        let autostart = outside.appending(path: "autostart.desktop").path
        for target in [bashrc, autostart] {
            unlink(s.journal)
            #expect(symlink(target, s.journal) == 0)

            // When the library exchanges, and a player quits (which only writes)
            // Then both are refused, naming the link and the way out, and nothing is written through it
            #expect(throws: SyncJournalWriteError.notARegularFile(path: s.journal, kind: .symbolicLink)) { try exchange(s) }
            #expect(throws: SyncJournalWriteError.notARegularFile(path: s.journal, kind: .symbolicLink)) {
                try s.library.sync.writeJournal(folder: s.folder, device: device)
            }
            #expect("\(SyncJournalWriteError.notARegularFile(path: s.journal, kind: .symbolicLink))".contains("abplayer sync repair"))
            #expect(try String(contentsOfFile: bashrc, encoding: .utf8) == "alias ls='ls -F'\n")
            #expect(!FileManager.default.fileExists(atPath: autostart))
        }

        // When it is repaired, and the library exchanges again
        let repaired = try SyncJournalFormat.repairJournal(of: device, in: s.folder)
        let report = try exchange(s)

        // Then the link is gone (said with where it pointed), the journal is a file of its own
        // holding the place, and the files outside are as they were
        #expect(repaired == .removed(kind: .symbolicLink, target: autostart))
        #expect(report.written >= 1)
        var info = stat()
        #expect(lstat(s.journal, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG)
        #expect(try SyncJournal.read(path: s.journal).records.contains { $0.change == .position(item: $0.book.items[0], frame: 1000) })
        #expect(try String(contentsOfFile: bashrc, encoding: .utf8) == "alias ls='ls -F'\n")
        #expect(!FileManager.default.fileExists(atPath: autostart))
        #expect(try SyncJournalFormat.repairJournal(of: device, in: s.folder) == .alreadyAFile)
    }

    @Test func aNamedPipeUnderThisDevicesJournalNameIsRefusedAtOnce() throws {
        // Given a named pipe (with no one at its other end) under this device's journal name
        let s = try syncing("fifo")
        #expect(mkfifo(s.journal, 0o644) == 0)

        // When the library exchanges, on a thread of its own (were it to wait for a writer at the
        // pipe's other end, the test says so instead of hanging the run)
        let device = device
        let outcome = onAThread(within: 60) { () -> SyncJournalWriteError? in
            do { _ = try s.library.sync.exchange(folder: s.folder, device: device, playing: nil); return nil } catch {
                return error as? SyncJournalWriteError
            }
        }

        // Then it is refused as a pipe, and `sync repair` removes it
        let error = try #require(outcome, "the exchange with a named pipe as its journal did not end within 60 s")
        #expect(error == .notARegularFile(path: s.journal, kind: .namedPipe))
        #expect(try SyncJournalFormat.repairJournal(of: device, in: s.folder) == .removed(kind: .namedPipe, target: nil))
        #expect(try exchange(s).written >= 1)
    }

    @Test func aJournalLeftEndingInHalfALineGetsWholeRecordsOnTheLinesAfter() throws {
        // Given this device's journal, written, then left ending in half a line (a write cut
        // short that could not be undone)
        let s = try syncing("cut")
        _ = try exchange(s)
        let handle = try #require(FileHandle(forWritingAtPath: s.journal))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("P\tabc\t17".utf8))
        try handle.close()

        // When the place moves and the library exchanges
        try s.library.positions.savePosition(bookId: s.war, mediaId: s.warItems[1], frame: 2205)
        let report = try exchange(s)

        // Then the new place is a whole line of its own (only the half line is damaged)
        #expect(report.written >= 1)
        let journal = try SyncJournal.read(path: s.journal)
        #expect(journal.damagedLines.count == 1)
        #expect(journal.records.contains { $0.change == .position(item: $0.book.items[1], frame: 2205) })
    }

    @Test(.enabled(if: SmallDisk.canMount, "needs root to mount a small tmpfs (mount -t tmpfs)"))
    func anAppendCutShortByAFullDiskLeavesTheJournalAsItWasAndLosesNothing() throws {
        // Given a sync folder on a small disk, this device's journal written there, then the disk
        // filled, and a place and a bookmark (with a note longer than a page) made since
        let mount = try BuildProducts.temporaryDirectory("own-journal-full-disk")
        let disk = try SmallDisk(at: mount, bytes: 256 * 1024)
        defer { disk.unmount() }
        let s = try syncing("full", folder: mount.path)
        _ = try exchange(s)
        let before = try Data(contentsOf: URL(fileURLWithPath: s.journal))
        let filler = mount.appending(path: "filler")
        try Data(count: disk.freeBytes).write(to: filler)
        try s.library.positions.savePosition(bookId: s.war, mediaId: s.warItems[1], frame: 31_641)
        let note = String(repeating: "a long note ", count: 1000)
        try s.library.bookmarks.add(bookId: s.war, mediaId: s.warItems[1], frame: 500, kind: .user, note: note)

        // When the library exchanges
        // Then the write fails in one line that says write, and the journal is byte for byte as it was
        do {
            _ = try exchange(s)
            Issue.record("an exchange on a full disk reported no failure")
        } catch let error as SyncJournalWriteError {
            #expect("\(error)".contains("cannot write"), "\(error)")
            #expect(!"\(error)".contains("\n"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: s.journal)) == before)

        // When space is freed and the library exchanges again
        try FileManager.default.removeItem(at: filler)
        _ = try exchange(s)

        // Then every line of the journal is whole, with the place and the bookmark
        let journal = try SyncJournal.read(path: s.journal)
        #expect(journal.damagedLines.isEmpty)
        #expect(journal.records.contains { $0.change == .position(item: $0.book.items[1], frame: 31_641) })
        #expect(journal.records.contains { if case let .bookmark(b) = $0.change { b.note == note } else { false } })
    }

    @Test func aCopyOfTheLibraryWritingItsJournalIsNoticedAndTheLibraryTakesANewDevice() throws {
        // Given a library syncing as its own device, and a copy of its file made on a second
        // computer (same device id), both on one folder
        let s = try syncing("copy")
        try s.library.sync.setFolder(s.folder)
        let original = try s.library.sync.settings().device
        _ = try s.library.sync.exchange(folder: s.folder, device: original, playing: nil)
        let copyPath = try BuildProducts.temporaryDirectory("own-journal-copy").path + "/library.sqlite"
        try s.library.writer.backup(to: try DatabaseQueue(path: copyPath))
        let copy = try LibraryDatabase(path: copyPath)
        #expect(try copy.sync.settings().device == original)

        // When the copy listens further and exchanges, then the original exchanges
        try copy.positions.savePosition(bookId: s.war, mediaId: s.warItems[1], frame: 4410)
        let copyReport = try copy.sync.exchange(folder: s.folder, device: original, playing: nil)
        let report = try s.library.sync.exchange(folder: s.folder, device: original, playing: nil)

        // Then the copy, which wrote the journal as it left it, stays the device; the original
        // says another copy wrote its journal, becomes a new device, and takes the copy's place
        // from the old journal as another device's
        #expect(copyReport.newDevice == nil && copyReport.problems.isEmpty)
        let taken = try #require(report.newDevice)
        let device = try s.library.sync.settings().device
        #expect(taken != original && device == taken)
        #expect(report.problems.count == 1 && report.problems[0].contains("another copy of this library"), "\(report.problems)")
        #expect(try s.library.positions.ofBook(s.war).map { [$0.mediaId, $0.frame] } == [s.warItems[1], 4410])
        #expect(FileManager.default.fileExists(atPath: SyncJournalFormat.path(of: taken, in: s.folder)))

        // When each listens and exchanges again
        try s.library.positions.savePosition(bookId: s.war, mediaId: s.warItems[0], frame: 8820, at: Date().addingTimeInterval(1))
        let again = try s.library.sync.exchange(folder: s.folder, device: taken, playing: nil)
        let copyAgain = try copy.sync.exchange(folder: s.folder, device: original, playing: nil)

        // Then neither is taken for a copy any more, and the copy sees the original's listening
        #expect(again.newDevice == nil && again.problems.isEmpty && copyAgain.newDevice == nil && copyAgain.problems.isEmpty)
        #expect(try copy.positions.ofBook(s.war).map { [$0.mediaId, $0.frame] } == [s.warItems[0], 8820])
    }
}
