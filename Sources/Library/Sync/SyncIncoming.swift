import Foundation
import GRDB

/// What the other devices did, as their merged journals say, applied to this library's rows
/// inside the exchange's one transaction (`SyncStore.exchange`): places, finished marks and
/// bookmarks here, settings and chapter lists in `+SettingsChapters`. Each records what it
/// changed, and the records it found damaged, in the exchange's report.
enum SyncIncoming {
    static func applyPosition(_ state: MergedBook, to book: SyncSnapshot.Book, rules: SyncMergeRules, playing: Int64?,
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
        guard try !heardPast(winner, in: book, db) else { return }
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

    /// Whether listening here has already gone as far as `claim` since it was made elsewhere: then
    /// it is neither offered (the book loaded) nor taken (a book not loaded). The one place that
    /// decides it. The newest listening wins otherwise, but a computer that merely re-dates a place
    /// behind this one's (a player rewinding a few seconds as it starts, another left playing, a
    /// clock a minute ahead) made its place "newer": listening here had gone to 3:38, past it and
    /// on, and 3:38 was offered again, then 6:00, then 6:05.
    ///
    /// "Since it was made" is from its time, or from when this computer last went to a place from
    /// elsewhere in the book, whichever is earlier: from there the two were in step, and what the
    /// other records later while behind what was heard here since (its own older listening, dated
    /// anew) is nothing the listener has not heard. A place ahead of all of it is offered.
    static func heardPast(_ claim: PositionClaim, in book: SyncSnapshot.Book, _ db: Database) throws -> Bool {
        guard let claimItem = book.identity.items.firstIndex(of: claim.item) else { return false }
        let since = StoredDate.text(claim.listenedAt)
        let reached = try Row.fetchAll(db, sql: """
            SELECT toMediaId, toFrame FROM listeningSession
            WHERE bookId = ?1 AND endedAt >= min(?2, ifnull((SELECT max(createdAt) FROM bookmark
                                                            WHERE bookId = ?1 AND kind = 'beforeSyncJump'), ?2))
            """, arguments: [book.id, since])
        return reached.contains { row in
            guard let item = book.mediaIds.firstIndex(of: row[0]) else { return false }
            let frame: Int64 = row[1]
            return (item, frame) >= (claimItem, claim.frame)
        }
    }

    static func applyFinished(_ state: MergedBook, to book: SyncSnapshot.Book, device: DeviceID, _ db: Database,
                              report: inout SyncExchangeReport) throws {
        guard let mark = state.finished, mark.device != device, mark.value != (book.finishedAt != nil) else { return }
        try db.execute(sql: "UPDATE book SET finishedAt = ?, finishedChangedAt = ? WHERE id = ?",
                       arguments: [mark.value ? StoredDate.text(mark.at) : nil, StoredDate.text(mark.at), book.id])
        report.finishedChanged += 1
    }

    /// Bookmarks made, edited or removed elsewhere. The edit time taken is the other device's, so
    /// passing the bookmark on later never dates it after a newer edit.
    static func applyBookmarks(_ state: MergedBook, to book: SyncSnapshot.Book, snapshot: SyncSnapshot, _ db: Database,
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
