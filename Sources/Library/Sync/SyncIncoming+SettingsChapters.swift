import Foundation
import GRDB

/// A book's settings and its user chapters through sync: each travels whole, dated by when it
/// last changed here (`book.settingsChangedAt`, `book.chaptersChangedAt`, stamped by the v12
/// triggers), and the newest record of a book wins on every device.
extension SyncIncoming {
    /// Another device's newer settings: every setting that travels is replaced, the volume is kept.
    /// The book playing keeps its own until it stops: the player holds its settings and saves them
    /// whole on any change, which would put the old ones back as a newer change.
    static func applySettings(_ state: MergedBook, to book: SyncSnapshot.Book, rules: SyncMergeRules, playing: Int64?, _ db: Database,
                              report: inout SyncExchangeReport) throws {
        guard let newest = state.settings, book.id != playing, newest.value != book.settings,
              rules.takes(newest, overLocalChangeAt: book.settingsChangedAt)
        else { return }
        let settings = newest.value
        try db.execute(sql: """
            INSERT INTO bookSettings (bookId, speed, shuffle, skipIntervalSeconds, sleepTimerSeconds, repeatMode, skipSilenceMs, loudness,
                                      skipIntroSeconds, skipOutroSeconds)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (bookId) DO UPDATE SET speed = excluded.speed, shuffle = excluded.shuffle,
                skipIntervalSeconds = excluded.skipIntervalSeconds, sleepTimerSeconds = excluded.sleepTimerSeconds,
                repeatMode = excluded.repeatMode, skipSilenceMs = excluded.skipSilenceMs, loudness = excluded.loudness,
                skipIntroSeconds = excluded.skipIntroSeconds, skipOutroSeconds = excluded.skipOutroSeconds
            """, arguments: [book.id, settings.speed, settings.shuffle, settings.skipIntervalSeconds, settings.sleepTimerSeconds,
                             settings.repeatMode, settings.skipSilence, settings.loudness, settings.skipIntroSeconds, settings.skipOutroSeconds])
        // Over the trigger's time: passed on, the change keeps the time it was made.
        try db.execute(sql: "UPDATE book SET settingsChangedAt = ? WHERE id = ?", arguments: [StoredDate.text(newest.at), book.id])
        report.settingsChanged += 1
    }

    /// Another device's newer chapter list replaces the book's, its items found here by content;
    /// a chapter in an item this library lacks is left out. The book playing keeps its list until
    /// it stops, for the reason settings do (the player stores its list whole on an edit).
    static func applyChapters(_ state: MergedBook, to book: SyncSnapshot.Book, rules: SyncMergeRules, playing: Int64?, _ db: Database,
                              report: inout SyncExchangeReport) throws {
        guard let newest = state.chapters, book.id != playing else { return }
        let here = newest.value.filter { book.mediaId(ofFingerprint: $0.item) != nil }
        guard here != book.chapters, rules.takes(newest, overLocalChangeAt: book.chaptersChangedAt) else { return }
        // The list travels whole: one chapter past its item's end makes the record damaged.
        for chapter in here {
            if case let .beyondEnd(length) = book.place(item: chapter.item, frame: chapter.frame) {
                report.damaged.note(newest.device, "a chapter in '\(book.identity.title)' \(SyncDamagedRecords.beyond(chapter.frame, length: length))")
                return
            }
        }
        try db.execute(sql: "DELETE FROM userChapter WHERE bookId = ?", arguments: [book.id])
        for chapter in here {
            guard let mediaId = book.mediaId(ofFingerprint: chapter.item) else { continue }
            // A book holding one file twice maps two places to one: the first is kept.
            try db.execute(sql: "INSERT OR IGNORE INTO userChapter (bookId, mediaId, frame, title) VALUES (?, ?, ?, ?)",
                           arguments: [book.id, mediaId, chapter.frame, chapter.title])
        }
        // The other device's time, so passing the list on never dates it later. A list with chapters
        // left out is not passed on at all (no time: not changed here): at the same time from a
        // greater device id it would beat the whole list and drop them on the devices that have them.
        let changedAt = here.count == newest.value.count ? StoredDate.text(newest.at) : nil
        try db.execute(sql: "UPDATE book SET chaptersChangedAt = ? WHERE id = ?", arguments: [changedAt, book.id])
        report.chaptersChanged += 1
    }
}
