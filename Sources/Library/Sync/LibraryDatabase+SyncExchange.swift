public import Foundation
import GRDB

/// What one exchange with the sync folder did.
public struct SyncExchangeReport: Sendable {
    /// A book whose place was taken from another device, and where it was before (an undo point
    /// was left there).
    public struct Move: Sendable, Equatable {
        public var bookId: Int64
        public var title: String
        public var claim: PositionClaim
        /// What the device calls itself, when its journal says.
        public var deviceName: String?
        /// The place as seconds into the whole book (nil when an item's length is unknown).
        public var seconds: Double?
        /// The book had a place here, kept as a beforeSyncJump bookmark.
        public var leftUndoPoint = false
    }

    /// Books not playing whose place another device's later listening moved.
    public var moved: [Move] = []
    /// The playing book's place on another device, later than here: never moved under the
    /// listener; the player offers it (`sync jump`).
    public var waiting: Move?
    public var bookmarksAdded = 0
    public var bookmarksChanged = 0
    public var bookmarksRemoved = 0
    public var finishedChanged = 0
    /// Where the other devices are in each book they have a place in, newest listening first
    /// (`status` shows the book loaded's, `books` every book's).
    public var elsewhere = SyncElsewhere()
    /// Books whose settings (all but the volume) were taken from another device.
    public var settingsChanged = 0
    /// Books whose user chapters were taken from another device (an empty list among them).
    public var chaptersChanged = 0
    /// Records this library appended to its own journal.
    public var written = 0
    /// One line for each journal that could not be read whole, or whose records could not be applied.
    public var problems: [String] = []
    /// The device this library became in this exchange, because another copy of it wrote its
    /// journal (the exchange was made as the new device).
    public var newDevice: DeviceID?
    /// Other devices' records that cannot be true here, noted while applying (`problems` says them).
    var damaged = SyncDamagedRecords()
}

extension LibraryDatabase {
    /// One exchange with the sync folder: this library's changes since its journal last said
    /// where it stood are appended to its own journal first (so a change made here is never
    /// overwritten by an older one from elsewhere), then every device's journal is merged by
    /// `SyncMergeRules` and what other devices did is applied here. `playing`: the book being
    /// listened to, whose place is never moved (it is reported as `waiting`). `placesElsewhere`:
    /// the report says where the other devices are in each book (`elsewhere`, which keeps the
    /// merge and the snapshot: tens of megabytes for 100 devices and 10,000 books).
    public func exchangeSync(folder: String, device: DeviceID, deviceName: String? = nil, playing: Int64?, now: Date = Date(),
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
                try applyPosition(state, to: book, rules: rules, playing: playing, names: names, db, report: &report)
                try applyFinished(state, to: book, device: device, db, report: &report)
                try applyBookmarks(state, to: book, snapshot: snapshot, db, report: &report)
                try applySettings(state, to: book, rules: rules, playing: playing, db, report: &report)
                try applyChapters(state, to: book, rules: rules, playing: playing, db, report: &report)
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
    public func writeSyncJournal(folder: String, device: DeviceID, deviceName: String? = nil, now: Date = Date()) throws -> Int {
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
        try SyncJournalWriter(folder: folder, device: device, name: deviceName, journal: own).append(outgoing)
        return outgoing.count
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

    private func applyPosition(_ state: MergedBook, to book: SyncSnapshot.Book, rules: SyncMergeRules, playing: Int64?,
                               names: [DeviceID: String], _ db: Database, report: inout SyncExchangeReport) throws {
        let here = book.position.flatMap { position in
            book.fingerprint(ofMedia: position.mediaId).map {
                PositionClaim(device: rules.local, listenedAt: position.updatedAt, item: $0, frame: position.frame)
            }
        }
        // A place past its item's end is damaged: passed over (the true places before it still
        // count) and said as its device's.
        var damaged = report.damaged
        let winner = state.winningPosition(rules, and: here, isPossible: { claim in
            if case .beyondEnd = book.place(item: claim.item, frame: claim.frame) { return false }
            return true
        }, impossible: { claim in
            if case let .beyondEnd(length) = book.place(item: claim.item, frame: claim.frame) {
                damaged.note(claim.device, "a place in '\(book.identity.title)' \(SyncDamagedRecords.beyond(claim.frame, length: length))")
            }
        })
        report.damaged = damaged
        guard let winner, winner.device != rules.local, case let .within(mediaId)? = book.place(item: winner.item, frame: winner.frame)
        else { return }
        guard book.position?.mediaId != mediaId || book.position?.frame != winner.frame else { return }
        var move = SyncExchangeReport.Move(bookId: book.id, title: book.identity.title, claim: winner, deviceName: names[winner.device],
                                           seconds: book.seconds(item: winner.item, frame: winner.frame))
        if book.id == playing {
            report.waiting = move
            return
        }
        if let old = book.position {
            var undo = Bookmark(id: nil, bookId: book.id, mediaId: old.mediaId, frame: old.frame, kind: .beforeSyncJump,
                                note: "before \(names[winner.device] ?? winner.device.text)'s place", createdAt: rules.now)
            try undo.insert(db)
            move.leftUndoPoint = true
        }
        try Position(bookId: book.id, mediaId: mediaId, frame: winner.frame, updatedAt: winner.listenedAt).upsert(db)
        report.moved.append(move)
    }

    private func applyFinished(_ state: MergedBook, to book: SyncSnapshot.Book, device: DeviceID, _ db: Database,
                               report: inout SyncExchangeReport) throws {
        guard let mark = state.finished, mark.device != device, mark.value != (book.finishedAt != nil) else { return }
        try db.execute(sql: "UPDATE book SET finishedAt = ?, finishedChangedAt = ? WHERE id = ?",
                       arguments: [mark.value ? StoredDate.text(mark.at) : nil, StoredDate.text(mark.at), book.id])
        report.finishedChanged += 1
    }

    /// Bookmarks made, edited or removed elsewhere. The edit time taken is the other device's, so
    /// passing the bookmark on later never dates it after a newer edit.
    private func applyBookmarks(_ state: MergedBook, to book: SyncSnapshot.Book, snapshot: SyncSnapshot, _ db: Database,
                                report: inout SyncExchangeReport) throws {
        guard !state.bookmarks.isEmpty || !state.removedBookmarks.isEmpty else { return }
        let local = Dictionary(book.bookmarks.compactMap { b in snapshot.syncIds[b.id!].map { ($0, b) } }, uniquingKeysWith: { a, _ in a })
        for travelling in state.bookmarks {
            guard let place = book.place(item: travelling.item, frame: travelling.frame) else { continue }
            guard case let .within(mediaId) = place else {
                if case let .beyondEnd(length) = place, let device = state.bookmarkDevices[travelling.id] {
                    report.damaged.note(device, "a bookmark in '\(book.identity.title)' \(SyncDamagedRecords.beyond(travelling.frame, length: length))")
                }
                continue
            }
            // Written only with a change: made for every bookmark of every book, the text was a fifth of applying nothing new.
            var editedAt: String { StoredDate.text(state.bookmarkEditedAt[travelling.id] ?? travelling.createdAt) }
            if let mine = local[travelling.id] {
                guard mine.mediaId != mediaId || mine.frame != travelling.frame || mine.note != travelling.note else { continue }
                try db.execute(sql: "UPDATE bookmark SET mediaId = ?, frame = ?, note = ?, editedAt = ? WHERE id = ?",
                               arguments: [mediaId, travelling.frame, travelling.note, editedAt, mine.id])
                report.bookmarksChanged += 1
            } else {
                // Made on another device (or given its sync id there first): ours now, with that id.
                let exists = try Int.fetchOne(db, sql: "SELECT count(*) FROM bookmark WHERE syncId = ?", arguments: [travelling.id]) ?? 0
                guard exists == 0 else { continue }
                try db.execute(sql: """
                    INSERT INTO bookmark (bookId, mediaId, frame, kind, note, createdAt, syncId, editedAt)
                        VALUES (?, ?, ?, 'user', ?, ?, ?, ?)
                    """, arguments: [book.id, mediaId, travelling.frame, travelling.note, StoredDate.text(travelling.createdAt),
                                     travelling.id, editedAt])
                report.bookmarksAdded += 1
            }
        }
        // Only those still here: every removal is in the journals for good, and asking the
        // database for each at every exchange was thousands of statements.
        for removed in state.removedBookmarks where local[removed] != nil {
            try db.execute(sql: "DELETE FROM bookmark WHERE syncId = ? AND bookId = ?", arguments: [removed, book.id])
            report.bookmarksRemoved += db.changesCount
        }
    }
}
