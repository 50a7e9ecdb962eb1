import Foundation
@testable import Library
import Testing
import TestSupport

/// The sync folder as an attacker leaves it (issue 28): anyone who can write to the share writes
/// journals, and Syncthing carries symbolic links. Each line, file or record that could stop,
/// hang or break a player is refused with one line saying so, and the library stays as it was,
/// read back from its SQLite file.
@Suite struct SyncHostileFolderTests {
    /// A library of the audiobook tree in a file of its own, War's identity and items, and an
    /// empty sync folder.
    struct Here {
        let library: LibraryDatabase
        let folder: String
        let device = DeviceID("HERE")!
        let war: Int64
        let warItems: [Media]
        let identity: SyncBookIdentity
        var reference: String { SyncJournalFormat.reference(of: identity) }

        /// A journal of `device` in the folder: its header, War's book line, then `lines`.
        func journal(_ lines: [String], device: String = "EVIL") throws {
            let text = SyncJournalFormat.header(device: DeviceID(device)!) + SyncJournalFormat.bookLine(identity, reference: reference)
                + lines.map { $0 + "\n" }.joined()
            try text.write(toFile: folder + "/\(device).abplayer-journal", atomically: true, encoding: .utf8)
        }

        @discardableResult
        func exchange() throws -> SyncExchangeReport { try library.sync.exchange(folder: folder, device: device, playing: nil) }

        /// The library in its file, opened again: what the exchange left on disk.
        func reopened() throws -> LibraryDatabase { try LibraryDatabase(path: try #require(library.path)) }
    }

    func here(_ name: String) throws -> Here {
        let files = try BuildProducts.temporaryDirectory("hostile-\(name)-library").path
        let library = try LibraryDatabase(path: files + "/here.sqlite")
        _ = try importer(library).importPaths([try Fixtures.audiobookTree().path])
        let war = try library.books.book(matching: "War").id!
        return Here(library: library, folder: try BuildProducts.temporaryDirectory("hostile-\(name)-folder").path, war: war,
                    warItems: try library.books.items(ofBook: war), identity: try library.sync.identity(ofBook: war))
    }

    /// Milliseconds since 1970 of now, as a journal writes a time.
    var now: Int64 { SyncJournalFormat.milliseconds(Date()) }

    // MARK: 1. Settings

    @Test func aSettingsLineOutsideTheCLIsRangesIsDamagedAndNothingIsStored() throws {
        // Given War with settings of its own, and another device's settings lines whose skip and
        // sleep timer are 1e308 s (which trapped every player) or 4.9e-324 s (below the CLI's 1 s)
        let h = try here("settings")
        var settings = try h.library.settings.ofBook(h.war)
        settings.speed = 1.25
        try h.library.settings.save(settings)
        let before = try h.library.settings.ofBook(h.war)
        let lines = ["sleep=1e308", "skip=1e308", "sleep=4.9e-324", "skip=4.9e-324", "skip=3600.5", "sleep=0.5"]
        try h.journal(lines.map { "S\t\(h.reference)\t\(now)\tspeed=2\t\($0)" })

        // When it is read and exchanged
        let alone = try SyncJournal.read(path: h.folder + "/EVIL.abplayer-journal")
        let report = try h.exchange()

        // Then every one of those lines is damaged, none is taken, and the settings are as they were
        #expect(alone.damagedLines == Array(3...8) && alone.records.isEmpty)
        #expect(report.settingsChanged == 0)
        #expect(report.problems == ["\(h.folder)/EVIL.abplayer-journal: 6 damaged lines skipped (the first is line 3)"])
        #expect(try h.reopened().settings.ofBook(h.war) == before)
    }

    @Test func theSyncRangesAreTheCLIs() {
        // The journal's and the CLI's ranges are one definition (SettingText uses these).
        #expect(SettingRanges.skipSeconds == 1.0...3600.0 && SettingRanges.sleepSeconds == 1.0...86400.0 && SettingRanges.speed == 0.5...4.0)
    }

    // MARK: 2. Times and lengths

    @Test func absurdTimesAndLengthsAreDamagedAndTheLibraryStillListsAndReadsBack() throws {
        // Given another device's lines dated in year 31,690,708, before 1970, in year -2, one day
        // before 2000, and a bookmark created in year -31,690,708; and book lines whose length is
        // infinite, negative or a million hours
        let h = try here("dates")
        let yearMinus2: Int64 = -62_230_000_000_000
        try h.journal([
            "F\t\(h.reference)\t999999999999999999\t1",
            "F\t\(h.reference)\t-999999999999999999\t1",
            "F\t\(h.reference)\t\(yearMinus2)\t1",
            "F\t\(h.reference)\t946598400000\t1",
            "P\t\(h.reference)\t999999999999999999\t0\t5",
            "M\t\(h.reference)\t\(now)\tM1\t0\t5\tuser\t-999999999999999999\tnote",
            "B\tx1\tOther\t\tinf\t\(h.identity.items[0])",
            "B\tx2\tOther\t\t-5\t\(h.identity.items[0])",
            "B\tx3\tOther\t\t3600000000.000\t\(h.identity.items[0])",
        ])

        // When it is read and exchanged
        let alone = try SyncJournal.read(path: h.folder + "/EVIL.abplayer-journal")
        let report = try h.exchange()

        // Then every line is damaged and nothing is taken
        #expect(alone.damagedLines == Array(3...11) && alone.records.isEmpty)
        #expect(report.problems == ["\(h.folder)/EVIL.abplayer-journal: 9 damaged lines skipped (the first is line 3)"])
        #expect(report.finishedChanged == 0 && report.moved.isEmpty && report.bookmarksAdded == 0)
        // and the library, opened again, still lists its books and reads War's place and bookmarks back
        let library = try h.reopened()
        #expect(try library.books.book(matching: "War").finishedAt == nil)
        #expect(try library.positions.ofBook(h.war) == nil && library.bookmarks.all(ofBook: h.war).isEmpty)
        #expect(try !library.catalog.books(on: .notStarted).isEmpty && library.catalog.books(on: .finished).isEmpty)
        // and the same times at the edges are read: 2000-01-01 and the time now
        try h.journal(["F\t\(h.reference)\t946684800000\t1", "F\t\(h.reference)\t\(now)\t1"])
        #expect(try SyncJournal.read(path: h.folder + "/EVIL.abplayer-journal").damagedLines.isEmpty)
    }

    // MARK: 3, 4. Files that are not journals

    @Test func aNamedPipeUnderAJournalsNameIsSkippedAtOnceWithOneLine() throws {
        // Given a named pipe named like a journal (open() on it waited for a writer forever)
        let folder = try BuildProducts.temporaryDirectory("hostile-fifo").path
        let path = folder + "/EVIL-000C.abplayer-journal"
        #expect(mkfifo(path, 0o644) == 0)
        // (a read that blocks is released, so that a failing run ends)
        defer { let writer = open(path, O_WRONLY | O_NONBLOCK); if writer >= 0 { close(writer) } }

        // When the folder is read, and the file alone (as the writer reads its own journal)
        let contents = onAThread(within: 30) { SyncFolder.read(folder, excluding: nil) }
        let alone = onAThread(within: 30) { Result { try SyncJournal.read(path: path) } }

        // Then both return at once, saying what the file is
        let read = try #require(contents ?? nil, "SyncFolder.read did not return")
        #expect(read.journals.isEmpty && read.problems == ["\(path): a named pipe, not a journal file; skipped"])
        let error = try #require(alone, "SyncJournal.read did not return")
        #expect(throws: SyncJournalError.notARegularFile(path: path, kind: .namedPipe)) { try error.get() }
    }

    @Test func aSymbolicLinkUnderAJournalsNameIsNeverFollowed() throws {
        // Given links named like journals: to /dev/zero (read, it never ended), and to a real
        // journal elsewhere (a share must not make a player read any file the user can)
        let folder = try BuildProducts.temporaryDirectory("hostile-links").path
        let elsewhere = try BuildProducts.temporaryDirectory("hostile-links-target").path + "/GOOD.abplayer-journal"
        try (SyncJournalFormat.header(device: DeviceID("GOOD")!)).write(toFile: elsewhere, atomically: true, encoding: .utf8)
        let zero = folder + "/EVIL-0001.abplayer-journal", linked = folder + "/EVIL-0002.abplayer-journal"
        try FileManager.default.createSymbolicLink(atPath: zero, withDestinationPath: "/dev/zero")
        try FileManager.default.createSymbolicLink(atPath: linked, withDestinationPath: elsewhere)

        // When the folder is read, and each file alone
        let contents = try #require(onAThread(within: 30) { SyncFolder.read(folder, excluding: nil) } ?? nil, "SyncFolder.read did not return")
        let alone = try #require(onAThread(within: 30) { [zero, linked].map { path in Result { try SyncJournal.read(path: path) } } },
                                 "SyncJournal.read did not return")

        // Then each is skipped with one line, and neither is read alone either
        #expect(contents.journals.isEmpty)
        #expect(contents.problems == [zero, linked].map { "\($0): a symbolic link, not a journal file; skipped" })
        for (path, result) in zip([zero, linked], alone) {
            #expect(throws: SyncJournalError.notARegularFile(path: path, kind: .symbolicLink)) { try result.get() }
        }
    }

    @Test func aLinkPlantedUnderThisDevicesOwnJournalNameIsNeverFollowedOrWritten() throws {
        // Given a link under this library's own journal's name to a journal elsewhere
        let h = try here("own-link")
        let elsewhere = try BuildProducts.temporaryDirectory("hostile-own-target").path + "/HERE.abplayer-journal"
        let text = SyncJournalFormat.header(device: h.device)
        try text.write(toFile: elsewhere, atomically: true, encoding: .utf8)
        let own = SyncJournalFormat.path(of: h.device, in: h.folder)
        try FileManager.default.createSymbolicLink(atPath: own, withDestinationPath: elsewhere)
        try h.library.positions.savePosition(bookId: h.war, mediaId: h.warItems[0].id!, frame: 1000)

        // When the library exchanges
        // Then it fails naming the link (and `sync repair`), and the file it points to is as it was
        #expect(throws: SyncJournalWriteError.notARegularFile(path: own, kind: .symbolicLink)) { try h.exchange() }
        #expect(try String(contentsOfFile: elsewhere, encoding: .utf8) == text)
    }

    // MARK: 4. A journal too large

    @Test func aJournalPastTheLimitIsReadUpToItAndReportedOnce() throws {
        // Given a journal of 65 MiB: a place, then (sparse) zeros, then a later place past 64 MiB
        let h = try here("large")
        try h.journal(["P\t\(h.reference)\t\(now - 1000)\t0\t5"])
        let path = h.folder + "/EVIL.abplayer-journal"
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try file.truncate(atOffset: 65 << 20)
        try file.seekToEnd()
        try file.write(contentsOf: Data("\nP\t\(h.reference)\t\(now)\t1\t7\n".utf8))
        try file.close()

        // When it is read alone, and with the folder
        let alone = try SyncJournal.read(path: path)
        let contents = try #require(SyncFolder.read(h.folder, excluding: h.device))

        // Then only the first 64 MiB are read: the first place, the cut line damaged, and it is said once
        #expect(alone.readLimitReached && alone.damagedLines == [4])
        #expect(alone.records.map(\.change) == [.position(item: h.identity.items[0], frame: 5)])
        #expect(contents.problems == ["\(path): 1 damaged line skipped (the first is line 4)",
                                      "\(path): larger than 64 MiB; read its first 64 MiB"])
        #expect(SyncJournalFile.byteLimit == 64 << 20)
    }

    // MARK: 7. Records that cannot be true here

    @Test func aPlaceBookmarkOrChapterPastTheEndOfItsItemIsNotApplied() throws {
        // Given War listened to here, and another device's newer place 999999999999999999 frames
        // into its first item, a bookmark one frame past the item's end, and a chapter list with
        // a chapter past it
        let h = try here("impossible")
        try h.library.positions.savePosition(bookId: h.war, mediaId: h.warItems[0].id!, frame: 1000, at: Date().addingTimeInterval(-3600))
        let length = try #require(h.warItems[0].durationFrames)
        try h.journal([
            "P\t\(h.reference)\t\(now)\t0\t999999999999999999",
            "M\t\(h.reference)\t\(now)\tM1\t0\t\(length + 1)\tuser\t\(now)\tnote",
            "C\t\(h.reference)\t\(now)\t0:0:One,0:999999999999999999:Evil",
        ])

        // When the library exchanges
        let report = try h.exchange()

        // Then none is applied, the place before stays, and the device's journal is named once
        #expect(report.moved.isEmpty && report.bookmarksAdded == 0 && report.chaptersChanged == 0)
        #expect(report.problems == ["\(h.folder)/EVIL.abplayer-journal: 3 damaged records not applied (the first: a place in '\(h.identity.title)' "
                                    + "past the end of its item: frame 999999999999999999 of \(length))"])
        let library = try h.reopened()
        let place = try #require(try library.positions.ofBook(h.war))
        #expect(place.mediaId == h.warItems[0].id && place.frame == 1000)
        #expect(try library.bookmarks.all(ofBook: h.war).isEmpty && library.books.userChapters(ofBook: h.war).isEmpty)

        // When a true place of another device, older than the impossible one, comes too
        try h.journal(["P\t\(h.reference)\t\(now - 60_000)\t1\t2000"], device: "TRUE")
        let withTrue = try h.exchange()

        // Then the impossible place does not keep it out: the true one is taken
        #expect(withTrue.moved.map(\.claim.device) == [DeviceID("TRUE")!])
        #expect(try h.reopened().positions.ofBook(h.war).map { [$0.mediaId, $0.frame] } == [h.warItems[1].id!, 2000])

        // and a place at the item's very end is applied
        try h.journal(["P\t\(h.reference)\t\(now)\t0\t\(length)"])
        let next = try h.exchange()
        #expect(next.problems.isEmpty && next.moved.map(\.bookId) == [h.war])
        #expect(try h.reopened().positions.ofBook(h.war)?.frame == length)
    }

    // MARK: The fuzzer's findings

    /// Every journal `make fuzz` (scripts/fuzz-journal.sh) ever crashed or hung on, and the
    /// attacker's lines from the issue, kept in Tests/Fuzz/regressions/journal-*.txt: each must be
    /// read or refused, and merge (a crash ends the run).
    @Test func theFuzzRegressionJournalsAreReadOrRefusedAndMerge() throws {
        let directory = BuildProducts.packageDirectory.appendingPathComponent("Tests/Fuzz/regressions")
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.lastPathComponent.hasPrefix("journal-") && $0.pathExtension == "txt" }
        try #require(!files.isEmpty)
        for file in files {
            guard let journal = SyncJournal.parse([UInt8](try Data(contentsOf: file))) else { continue }
            let merged = SyncMergeRules.merge([journal, journal], key: { Int64($0.items.count % 3) })
            let rules = SyncMergeRules(local: DeviceID("HERE")!)
            for book in merged.values { _ = book.winningPosition(rules, and: nil) }
        }
    }
}

