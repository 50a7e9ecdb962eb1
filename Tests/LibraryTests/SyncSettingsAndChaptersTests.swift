import Foundation
import GRDB
@testable import Library
import Testing
import TestSupport

/// A book's settings and user chapters through sync (issue 17): each travels whole and the newest
/// wins, the volume never travels, the book playing keeps its own; the journal lines read back
/// exactly, damaged ones are skipped and a newer writer's keys ignored; compaction keeps the
/// newest of each. Two libraries in SQLite files (SyncExchangeTests' pair), each read back from
/// its file.
@Suite struct SyncSettingsAndChaptersTests {
    func pair(_ name: String) throws -> SyncExchangeTests.Pair { try SyncExchangeTests().pair(name) }

    /// The library in `library`'s file, opened again: what the exchange left on disk.
    func reopened(_ library: LibraryDatabase) throws -> LibraryDatabase { try LibraryDatabase(path: try #require(library.path)) }

    /// book.settingsChangedAt and book.chaptersChangedAt as SQLite holds them.
    func changedAt(_ library: LibraryDatabase, book: Int64) throws -> (settings: String?, chapters: String?) {
        try library.writer.read { db in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT settingsChangedAt, chaptersChangedAt FROM book WHERE id = ?",
                                                    arguments: [book]))
            return (row[0], row[1])
        }
    }

    /// A book's user chapters as (item's place in the book, frame, title), in the book's order.
    func chapters(_ library: LibraryDatabase, book: Int64, items: [Int64]) throws -> [[String]] {
        try library.books.userChapters(ofBook: book)
            .map { [String(items.firstIndex(of: $0.mediaId) ?? -1), String($0.frame), $0.title] }
            .sorted { ($0[0], Int($0[1]) ?? 0) < ($1[0], Int($1[1]) ?? 0) }
    }

    // MARK: What stamps a change

    @Test func aVolumeAloneNeverDatesTheSettingsButATravellingSettingDoesAndChaptersDo() throws {
        // Given a library in a file
        let p = try pair("stamps")
        #expect(try changedAt(p.here, book: p.war) == (nil, nil))

        // When only the volume is set (a new row, then a change)
        var settings = try p.here.settings.ofBook(p.war)
        settings.volume = 80
        try p.here.settings.save(settings)
        settings.volume = 60
        try p.here.settings.save(settings)
        // Then the settings are not dated: the volume stays on this machine
        #expect(try changedAt(p.here, book: p.war).settings == nil)

        // When the speed is set, they are; saving the same settings again leaves the time alone
        settings.speed = 1.4
        try p.here.settings.save(settings)
        let stamped = try #require(try changedAt(p.here, book: p.war).settings)
        #expect(StoredDate.date(fromText: stamped).map { abs($0.timeIntervalSinceNow) < 60 } == true)
        Thread.sleep(forTimeInterval: 0.01)
        try p.here.settings.save(settings)
        settings.volume = 90
        try p.here.settings.save(settings)
        #expect(try changedAt(p.here, book: p.war).settings == stamped)

        // and a chapter made, renamed or removed dates the chapters
        #expect(try changedAt(p.here, book: p.war).chapters == nil)
        let chapter = try p.here.books.addUserChapter(UserChapterStart(mediaId: p.warItems[0], frame: 0, title: "One"), toBook: p.war)
        let added = try #require(try changedAt(p.here, book: p.war).chapters)
        Thread.sleep(forTimeInterval: 0.01)
        try p.here.books.renameUserChapter(id: chapter.id!, title: "First")
        let renamed = try #require(try changedAt(p.here, book: p.war).chapters)
        Thread.sleep(forTimeInterval: 0.01)
        try p.here.books.deleteUserChapter(id: chapter.id!)
        let removed = try #require(try changedAt(p.here, book: p.war).chapters)
        #expect(added < renamed && renamed < removed)
    }

    // MARK: Settings

    @Test func speedAndSkipSilenceSetOnOneLibraryArriveOnTheOtherWhoseVolumeIsKept() throws {
        // Given there a volume of its own, and here a speed, skip silence and a volume
        let p = try pair("settings-arrive")
        var theirs = try p.there.settings.ofBook(p.theirWar)
        theirs.volume = 70
        try p.there.settings.save(theirs)
        var mine = try p.here.settings.ofBook(p.war)
        mine.speed = 1.5
        mine.skipSilence = .on(minimumMs: 800)
        mine.volume = 120
        try p.here.settings.save(mine)

        // When here exchanges, then there
        try p.exchangeThere()
        try p.exchangeHere()
        let report = try p.exchangeThere()

        // Then there plays the book at here's speed, skipping silence as here does, at its own volume
        #expect(report.settingsChanged == 1)
        let arrived = try reopened(p.there).settings.ofBook(p.theirWar)
        #expect(arrived.ownSpeed == 1.5 && arrived.ownSkipSilence == .on(minimumMs: 800))
        #expect(arrived.volume == 70)
        // dated as here changed them, not when they arrived
        #expect(try changedAt(p.there, book: p.theirWar).settings == (try changedAt(p.here, book: p.war).settings))
        // and more exchanges change nothing on either side
        for _ in 0..<2 {
            #expect(try p.exchangeHere().settingsChanged == 0)
            #expect(try p.exchangeThere().settingsChanged == 0)
        }
        #expect(try reopened(p.here).settings.ofBook(p.war).volume == 120)
        #expect(try reopened(p.there).settings.ofBook(p.theirWar).volume == 70)
    }

    @Test func aLaterChangeOnTheOtherLibraryWinsBackWhole() throws {
        // Given here's speed and skip silence taken there
        let p = try pair("settings-back")
        var mine = try p.here.settings.ofBook(p.war)
        mine.speed = 1.5
        mine.skipSilence = .on(minimumMs: 800)
        mine.volume = 120
        try p.here.settings.save(mine)
        try p.exchangeHere()
        try p.exchangeThere()

        // When there then changes the speed, turns skip silence off and repeats the book
        var theirs = try p.there.settings.ofBook(p.theirWar)
        theirs.speed = 2
        theirs.skipSilence = .off
        theirs.repeatMode = .book
        try p.there.settings.save(theirs)
        try p.exchangeThere()
        let report = try p.exchangeHere()

        // Then here has there's settings, all of them, and still its own volume
        #expect(report.settingsChanged == 1)
        let back = try reopened(p.here).settings.ofBook(p.war)
        #expect(back.ownSpeed == 2 && back.ownSkipSilence == .off && back.repeatMode == .book)
        #expect(back.volume == 120)
    }

    @Test func theBookPlayingKeepsItsSettingsAndChaptersUntilItStops() throws {
        // Given a speed and a chapter set here
        let p = try pair("settings-playing")
        var mine = try p.here.settings.ofBook(p.war)
        mine.speed = 1.25
        try p.here.settings.save(mine)
        try p.here.books.addUserChapter(UserChapterStart(mediaId: p.warItems[1], frame: 100, title: "Later"), toBook: p.war)
        try p.exchangeHere()

        // When there exchanges while the book plays, nothing changes under the listener
        let playing = try p.exchangeThere(playing: p.theirWar)
        #expect(playing.settingsChanged == 0 && playing.chaptersChanged == 0)
        #expect(try p.there.settings.ofBook(p.theirWar).ownSpeed == nil && (try p.there.books.userChapters(ofBook: p.theirWar)).isEmpty)

        // and once it stops, both arrive
        let stopped = try p.exchangeThere()
        #expect(stopped.settingsChanged == 1 && stopped.chaptersChanged == 1)
        #expect(try reopened(p.there).settings.ofBook(p.theirWar).ownSpeed == 1.25)
    }

    @Test func aClockAheadOfOursNeverBeatsAChangeMadeHere() {
        let here = DeviceID("HERE")!
        let laptop = DeviceID("LAPTOP")!
        let now = Date(timeIntervalSince1970: 1_764_000_000)
        let rules = SyncMergeRules(local: here, now: now, futureTolerance: 300)
        let settings = SyncBookSettings(speed: 2)
        func newest(_ device: DeviceID, _ seconds: Double) -> SyncNewest<SyncBookSettings> {
            SyncNewest(value: settings, at: now.addingTimeInterval(seconds), device: device)
        }
        #expect(rules.takes(newest(laptop, -10), overLocalChangeAt: now.addingTimeInterval(-20)))
        #expect(!rules.takes(newest(laptop, -30), overLocalChangeAt: now.addingTimeInterval(-20)))
        // ten minutes ahead: used where nothing changed here, never over a change made here
        #expect(rules.takes(newest(laptop, 600), overLocalChangeAt: nil))
        #expect(!rules.takes(newest(laptop, 600), overLocalChangeAt: now.addingTimeInterval(-20)))
        #expect(rules.takes(newest(laptop, 120), overLocalChangeAt: now.addingTimeInterval(-20)))
        // this device's own record is never "taken"; at the same time the greater device wins
        #expect(!rules.takes(newest(here, -10), overLocalChangeAt: nil))
        #expect(rules.takes(newest(laptop, -20), overLocalChangeAt: now.addingTimeInterval(-20)) == (laptop > here))
    }

    // MARK: Chapters

    @Test func userChaptersAddedOnOneLibraryAppearOnTheOtherAtTheSameItemFrameAndTitle() throws {
        // Given two chapters made here, one with a comma, a colon and a tab in its title
        let p = try pair("chapters-add")
        try p.here.books.addUserChapter(UserChapterStart(mediaId: p.warItems[1], frame: 11_025, title: "The battle, at: dawn\there"), toBook: p.war)
        try p.here.books.addUserChapter(UserChapterStart(mediaId: p.warItems[0], frame: 0, title: "Opening"), toBook: p.war)

        // When here exchanges, then there
        try p.exchangeHere()
        let report = try p.exchangeThere()

        // Then there has them at the same items and frames, with the same titles
        #expect(report.chaptersChanged == 1)
        let expected = [["0", "0", "Opening"], ["1", "11025", "The battle, at: dawn\there"]]
        #expect(try chapters(try reopened(p.there), book: p.theirWar, items: p.theirWarItems) == expected)
        #expect(try chapters(p.here, book: p.war, items: p.warItems) == expected)
        // and passing them back and forth changes nothing
        #expect(try p.exchangeHere().chaptersChanged == 0)
        #expect(try p.exchangeThere().chaptersChanged == 0)
        #expect(try chapters(try reopened(p.here), book: p.war, items: p.warItems) == expected)
    }

    @Test func chaptersResetOnOneLibraryClearsThemOnTheOther() throws {
        // Given chapters made here and taken there
        let p = try pair("chapters-reset")
        try p.here.books.replaceUserChapters(ofBook: p.war, with: [
            UserChapterStart(mediaId: p.warItems[0], frame: 0, title: "One"),
            UserChapterStart(mediaId: p.warItems[1], frame: 500, title: "Two"),
        ])
        try p.exchangeHere()
        try p.exchangeThere()
        #expect(try p.there.books.userChapters(ofBook: p.theirWar).count == 2)

        // When here goes back to the files' chapters (`chapters reset`)
        Thread.sleep(forTimeInterval: 0.01)
        try p.here.books.replaceUserChapters(ofBook: p.war, with: [])
        try p.exchangeHere()
        let report = try p.exchangeThere()

        // Then there has none either, and they do not come back to here
        #expect(report.chaptersChanged == 1)
        #expect(try reopened(p.there).books.userChapters(ofBook: p.theirWar).isEmpty)
        try p.exchangeHere()
        #expect(try reopened(p.here).books.userChapters(ofBook: p.war).isEmpty)
    }

    @Test func aChapterInAnItemThisLibraryLacksIsLeftOutAndTheListIsNotPassedOn() throws {
        // Given another device's list for War with a chapter in a file this library does not have
        let p = try pair("chapters-partial")
        let other = DeviceID("OTHER")!
        var war = try p.here.sync.identity(ofBook: p.war)
        war.items.append("999:00000000000000ff")
        let list = [SyncChapter(item: war.items[0], frame: 10, title: "Here"), SyncChapter(item: war.items[war.items.count - 1], frame: 20, title: "Elsewhere")]
        try SyncJournalWriter(folder: p.folder, device: other).append([SyncRecord(book: war, at: Date(), change: .chapters(list))])

        // When here exchanges
        let report = try p.exchangeHere()

        // Then the chapter it can place is taken and the other left out
        #expect(report.chaptersChanged == 1)
        #expect(try chapters(try reopened(p.here), book: p.war, items: p.warItems) == [["0", "10", "Here"]])
        // and the shortened list is not written on (it would drop the chapter where the file
        // exists), though the journal carries what else changed here
        try p.here.positions.savePosition(bookId: p.war, mediaId: p.warItems[0], frame: 5, at: Date())
        try p.exchangeHere()
        let own = try SyncJournal.read(path: p.folder + "/HERE.abplayer-journal")
        #expect(own.records.contains { $0.change == .position(item: war.items[0], frame: 5) })
        #expect(!own.records.contains { if case .chapters = $0.change { true } else { false } })
        #expect(try p.exchangeHere().chaptersChanged == 0)
    }

    // MARK: Journal lines

    let laptop = DeviceID("LAPTOP-1")!
    let book = SyncBookIdentity(items: ["1000:00000000000000aa", "2000:00000000000000bb"], title: "War", author: "Tolstoy", seconds: 3600)
    func at(_ seconds: Double) -> Date { Date(timeIntervalSince1970: 1_764_000_000 + seconds) }

    @Test func settingsAndChapterLinesReadBackExactly() throws {
        // Given settings with each kind of value and chapter lists, one empty, with separators in titles
        let directory = try BuildProducts.temporaryDirectory("sync-settings-round-trip").path
        let records = [
            SyncRecord(book: book, at: at(1), change: .settings(SyncBookSettings(
                speed: 1.35, skipIntervalSeconds: 12.5, sleepTimerSeconds: 1800, skipSilence: .on(minimumMs: 750),
                loudness: false, repeatMode: .item, shuffle: true))),
            SyncRecord(book: book, at: at(2), change: .settings(SyncBookSettings(skipSilence: .off, loudness: true))),
            SyncRecord(book: book, at: at(3), change: .settings(SyncBookSettings())),
            SyncRecord(book: book, at: at(4), change: .chapters([
                SyncChapter(item: book.items[0], frame: 0, title: "Prologue: a, b\\c"),
                SyncChapter(item: book.items[1], frame: 44_100, title: "Tab\there\nnewline"),
            ])),
            SyncRecord(book: book, at: at(5), change: .chapters([])),
        ]

        // When they are written and read
        try SyncJournalWriter(folder: directory, device: laptop).append(records)
        let journal = try SyncJournal.read(path: directory + "/LAPTOP-1.abplayer-journal")

        // Then every record is there as written, nothing damaged
        #expect(journal.records == records)
        #expect(journal.damagedLines.isEmpty && journal.notUnderstood == 0)
        // and the volume is not among the settings written
        let text = try String(contentsOfFile: directory + "/LAPTOP-1.abplayer-journal", encoding: .utf8)
        let settingsLine = try #require(text.split(separator: "\n").first { $0.hasPrefix("S\t") })
        #expect(settingsLine.contains("\tspeed=1.35\t") && !settingsLine.contains("volume"))
    }

    @Test func damagedSettingsAndChapterLinesAreSkippedAndANewerWritersKeysIgnored() throws {
        // Given hand-written lines: good ones, one with a key this version does not know, and damaged ones
        let ref = SyncJournalFormat.reference(of: book)
        var journal = SyncJournalFormat.header(device: laptop)
        journal += "B\t\(ref)\tWar\tTolstoy\t3600.000\t1000:00000000000000aa,2000:00000000000000bb\n" // 2
        journal += "S\t\(ref)\t1764000001000\tspeed=1.5\tbass=+3\tshuffle=1\n"                       // 3: bass ignored
        journal += "S\t\(ref)\t1764000002000\tspeed=9\n"                                              // 4: out of range
        journal += "S\t\(ref)\t1764000003000\tspeed\n"                                                // 5: not KEY=VALUE
        journal += "S\t\(ref)\t1764000004000\tsilence=100\n"                                          // 6: out of range
        journal += "S\t\(ref)\t1764000005000\trepeat=sometimes\n"                                     // 7: unknown mode
        journal += "C\t\(ref)\t1764000006000\t0:0:One,1:500:Two\tnew-field\n"                         // 8: good
        journal += "C\t\(ref)\t1764000007000\t2:0:No such item\n"                                     // 9
        journal += "C\t\(ref)\t1764000008000\t0:-5:Before the start\n"                                // 10
        journal += "C\t\(ref)\t1764000009000\t0:5:   \n"                                              // 11: blank title
        journal += "C\t\(ref)\t1764000010000\t0:5:A,0:5:B\n"                                          // 12: two at one place
        journal += "C\t\(ref)\t1764000011000\t0:x:A\n"                                                // 13
        journal += "C\t\(ref)\t1764000012000\n"                                                       // 14: no list
        journal += "C\t\(ref)\t1764000013000\t\n"                                                     // 15: empty: reset
        journal += "S\t\(ref)\t1764000014000\tspeed=1.25"                                            // cut short

        // When it is read
        let read = try #require(SyncJournal.parse(Array(journal.utf8)))

        // Then the good lines are there, the unknown key ignored, and each damaged line counted
        #expect(read.records.map(\.change) == [
            .settings(SyncBookSettings(speed: 1.5, shuffle: true)),
            .chapters([SyncChapter(item: book.items[0], frame: 0, title: "One"), SyncChapter(item: book.items[1], frame: 500, title: "Two")]),
            .chapters([]),
        ])
        #expect(read.damagedLines == [4, 5, 6, 7, 9, 10, 11, 12, 13, 14, 16])
        #expect(read.notUnderstood == 0)
    }

    @Test func compactionKeepsTheNewestSettingsAndChaptersOfEachBook() throws {
        // Given a journal of two books whose settings and chapters changed many times, with places between
        let directory = try BuildProducts.temporaryDirectory("sync-settings-compaction").path
        let other = SyncBookIdentity(items: ["3000:00000000000000cc"], title: "Peace", author: nil, seconds: nil)
        let writer = try SyncJournalWriter(folder: directory, device: laptop, compactionBytes: 1 << 30)
        for step in 1...50 {
            let time = Double(step)
            try writer.append([
                SyncRecord(book: book, at: at(time), change: .settings(SyncBookSettings(speed: 1 + time / 100))),
                SyncRecord(book: book, at: at(time), change: .chapters([SyncChapter(item: book.items[0], frame: Int64(step), title: "C\(step)")])),
                SyncRecord(book: other, at: at(time + 0.5), change: .settings(SyncBookSettings(skipIntervalSeconds: time))),
                SyncRecord(book: other, at: at(time), change: .position(item: other.items[0], frame: Int64(step))),
            ])
        }
        // the newest chapter list of the second book is an empty one
        try writer.append([SyncRecord(book: other, at: at(10), change: .chapters([SyncChapter(item: other.items[0], frame: 1, title: "X")])),
                           SyncRecord(book: other, at: at(20), change: .chapters([]))])

        // When it is compacted
        try writer.compact()
        let journal = try SyncJournal.read(path: directory + "/LAPTOP-1.abplayer-journal")

        // Then one settings record and one chapter list of each book are left, the newest
        let kept = journal.records.filter { if case .position = $0.change { false } else { true } }
        #expect(kept.count == 4)
        let merged = SyncMergeRules.merge([journal]) { $0 == self.book ? 1 : 2 }
        #expect(merged[1]?.settings?.value == SyncBookSettings(speed: 1.5))
        #expect(merged[1]?.chapters?.value == [SyncChapter(item: book.items[0], frame: 50, title: "C50")])
        #expect(merged[2]?.settings?.value == SyncBookSettings(skipIntervalSeconds: 50) && merged[2]?.settings?.at == at(50.5))
        #expect(merged[2]?.chapters?.value == [] && merged[2]?.chapters?.at == at(20))
    }
}
