public import Foundation
import GRDB

extension SyncStore {
    /// One exchange with the sync folder: this library's changes since its journal last said
    /// where it stood are appended to its own journal first (so a change made here is never
    /// overwritten by an older one from elsewhere), then every device's journal is merged by
    /// `SyncMergeRules` and what other devices did is applied here. `playing`: the book being
    /// listened to, whose place is never moved (it is reported as `waiting`). `placesElsewhere`:
    /// the report says where the other devices are in each book (`elsewhere`, which keeps the
    /// merge and the snapshot: tens of megabytes for 100 devices and 10,000 books).
    public func exchange(folder: String, device: DeviceID, deviceName: String? = nil, playing: Int64?, now: Date = Date(),
                         futureTolerance: TimeInterval = 5 * 60, placesElsewhere: Bool = true) throws -> SyncExchangeReport {
        var copyProblems: [String] = []
        let device = try deviceCheckedForACopy(device, folder: folder, problems: &copyProblems)
        try SyncJournalFile.refuseAnythingButAFile(at: SyncJournalFormat.path(of: device, in: folder))
        let (contents, snapshot) = try syncFolderAndSnapshot(folder, excluding: device)
        guard let others = contents else { throw Self.syncFolderMissing(folder) }
        var report = SyncExchangeReport()
        report.problems = copyProblems + others.problems
        if !copyProblems.isEmpty { report.newDevice = device }
        // This library's journal as the folder was read (only this library writes it); read here
        // when it could not be, to fail as it does.
        let ownPath = SyncJournalFormat.path(of: device, in: folder)
        let own = try others.own ?? (FileManager.default.fileExists(atPath: ownPath) ? SyncJournal.read(path: ownPath) : nil)
        // The other devices' journals merged while this library's changes are worked out and
        // written, its own after (each only reads the snapshot, a tenth of a second of one core
        // for 100 devices and 10,000 books).
        let othersMerged = BackgroundWork { [others] in
            var merge = SyncJournalMerge(journals: others.journals.count + 1)
            for journal in others.journals { merge.add(journal) { snapshot.bookId(matching: $0, library: self) } }
            return merge
        }

        report.written = try appendOwnChanges(snapshot: snapshot, own: own, folder: folder, device: device, deviceName: deviceName, now: now)
        try rememberJournalMark(of: device, folder: folder)

        var merge = try othersMerged.result()
        if let ownNow = report.written == 0 ? own : try SyncJournal.read(path: ownPath) {
            merge.add(ownNow) { snapshot.bookId(matching: $0, library: self) }
        }
        let merged = merge.books
        let rules = SyncMergeRules(local: device, now: now, futureTolerance: futureTolerance)
        let names = others.deviceNames(besides: deviceName)
        releaseInBackground(consume others)
        if placesElsewhere { report.elsewhere = SyncElsewhere(merged, snapshot: snapshot, excluding: device, names: names) }
        try self.writer.write { db in
            for (bookId, state) in merged {
                guard let book = snapshot.books[bookId] else { continue }
                try SyncIncoming.applyPosition(state, to: book, rules: rules, playing: playing, names: names, db, report: &report)
                try SyncIncoming.applyFinished(state, to: book, device: device, db, report: &report)
                try SyncIncoming.applyBookmarks(state, to: book, snapshot: snapshot, db, report: &report)
                try SyncIncoming.applySettings(state, to: book, rules: rules, playing: playing, db, report: &report)
                try SyncIncoming.applyChapters(state, to: book, rules: rules, playing: playing, db, report: &report)
            }
        }
        report.problems += report.damaged.lines(folder: folder)
        // Moved there (consumed), so that this thread never holds the last reference.
        releaseInBackground((consume merge, consume own))
        if !placesElsewhere { releaseInBackground((consume merged, consume snapshot)) }
        return report
    }

    /// This library's changes since its journal last said where it stood, appended to its own
    /// journal without reading the other devices' journals (a player quitting: what it listened
    /// to since its last exchange, with no pause in between, reaches the other devices now, not
    /// when it next starts). The number of records written.
    public func writeJournal(folder: String, device: DeviceID, deviceName: String? = nil, now: Date = Date()) throws -> Int {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw Self.syncFolderMissing(folder)
        }
        // A copy found here (a player quitting) takes the new id all the same, unsaid: nobody
        // is there to read it; `sync status` shows the new device.
        var copyProblems: [String] = []
        let device = try deviceCheckedForACopy(device, folder: folder, problems: &copyProblems)
        let ownPath = SyncJournalFormat.path(of: device, in: folder)
        try SyncJournalFile.refuseAnythingButAFile(at: ownPath)
        let own = FileManager.default.fileExists(atPath: ownPath) ? try SyncJournal.read(path: ownPath) : nil
        let snapshot = try writer.read { db in try SyncSnapshot(db) }
        let written = try appendOwnChanges(snapshot: snapshot, own: own, folder: folder, device: device, deviceName: deviceName, now: now)
        try rememberJournalMark(of: device, folder: folder)
        return written
    }

    private static func syncFolderMissing(_ folder: String) -> LibraryError {
        LibraryError.invalid("the sync folder \(folder) is missing or not a folder; syncing waits until it is back")
    }

    /// This library's changes since `own` (its journal as read; nil: none yet) last said where it
    /// stood, appended to that journal. The number of records written.
    private func appendOwnChanges(snapshot: SyncSnapshot, own: SyncJournal?, folder: String, device: DeviceID, deviceName: String?,
                                  now: Date) throws -> Int {
        let outgoing = try outgoingRecords(snapshot: snapshot, own: own, device: device, now: now)
        // Renamed here (`sync name`) since the journal last said its name: said in it now, so the
        // other computers show the new one. (A new journal's header says it.)
        let renamed = own != nil && deviceName != nil && own?.deviceName != deviceName
        try SyncJournalWriter(folder: folder, device: device, name: deviceName, journal: own).append(outgoing, renamed: renamed ? now : nil)
        return outgoing.count + (renamed ? 1 : 0)
    }

    /// This library's state where its own journal says otherwise (or nothing): places, finished
    /// marks, user bookmarks made or edited, bookmarks its journal has that are gone here, and
    /// settings and chapter lists changed since.
    private func outgoingRecords(snapshot: SyncSnapshot, own: SyncJournal?, device: DeviceID, now: Date) throws -> [SyncRecord] {
        let journaled = own.map { journal in
            SyncMergeRules.merge([journal]) { snapshot.bookId(matching: $0, library: self) }
        } ?? [:]
        var records: [SyncRecord] = []
        for book in snapshot.books.values.sorted(by: { $0.id < $1.id }) {
            let said = journaled[book.id]
            if let position = book.position, let item = book.fingerprint(ofMedia: position.mediaId) {
                let last = said?.positions.filter { $0.device == device }.max { $0.listenedAt < $1.listenedAt }
                if last?.item != item || last?.frame != position.frame {
                    records.append(SyncRecord(book: book.identity, at: position.updatedAt, change: .position(item: item, frame: position.frame)))
                }
            }
            // A mark changed here, dated when: one passed on from another device keeps that device's time.
            if let changedAt = book.finishedChangedAt {
                let finished = book.finishedAt != nil
                if said?.finished.map({ $0.value != finished || $0.at < changedAt }) ?? true {
                    records.append(SyncRecord(book: book.identity, at: changedAt, change: .finished(finished)))
                }
            }
            var live: Set<String> = []
            for bookmark in book.bookmarks {
                let id = try snapshot.syncIds[bookmark.id!] ?? syncId(ofBookmark: bookmark.id!)
                live.insert(id)
                guard let item = book.fingerprint(ofMedia: bookmark.mediaId) else { continue }
                let travelling = SyncBookmark(id: id, item: item, frame: bookmark.frame, kind: .user, note: bookmark.note,
                                              createdAt: bookmark.createdAt)
                if said?.bookmarks.first(where: { $0.id == id }) != travelling {
                    let editedAt = snapshot.editedAt[bookmark.id!] ?? bookmark.createdAt
                    records.append(SyncRecord(book: book.identity, at: editedAt, change: .bookmark(travelling)))
                }
            }
            for gone in (said?.bookmarks ?? []).map(\.id) where !live.contains(gone) {
                records.append(SyncRecord(book: book.identity, at: now, change: .bookmarkRemoved(id: gone)))
            }
            records += settingsAndChaptersRecords(book, said: said)
        }
        return records
    }

    /// The book's settings and chapter list where they changed here after what its own journal
    /// last said of them. Dated when they changed: taken from another device, they keep its time.
    private func settingsAndChaptersRecords(_ book: SyncSnapshot.Book, said: MergedBook?) -> [SyncRecord] {
        var records: [SyncRecord] = []
        if let changedAt = book.settingsChangedAt, said?.settings.map({ $0.value != book.settings || $0.at < changedAt }) ?? true {
            records.append(SyncRecord(book: book.identity, at: changedAt, change: .settings(book.settings)))
        }
        if let changedAt = book.chaptersChangedAt, said?.chapters.map({ $0.value != book.chapters || $0.at < changedAt }) ?? true {
            records.append(SyncRecord(book: book.identity, at: changedAt, change: .chapters(book.chapters)))
        }
        return records
    }

    /// The journals in `folder` (as `SyncFolder.read` reads them; nil when it cannot be listed)
    /// and this library's snapshot, read at the same time: the snapshot is a third of a second of
    /// SQLite for 10,000 books, on one core, that the folder's readers leave room for. (On a
    /// thread of its own, not in a `concurrentPerform` of two: the folder's own would then run
    /// its files one at a time.)
    func syncFolderAndSnapshot(_ folder: String, excluding device: DeviceID) throws -> (SyncFolder.Contents?, SyncSnapshot) {
        let snapshot = BackgroundWork { try self.writer.read { db in try SyncSnapshot(db) } }
        let contents = SyncFolder.read(folder, excluding: device)
        return (contents, try snapshot.result())
    }
}
