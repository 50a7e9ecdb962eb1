import Foundation
import GRDB

/// The listener's state as a `StateExport` document and back: places, settings, bookmarks, user
/// chapters, finished marks, the queue and the preferences, books named by their items'
/// fingerprints (`+Files` reads and writes it as a file, `+UserChapters` carries the chapters).
public struct StateStore: Sendable {
    let writer: any DatabaseWriter
    /// The database's own files, which are never written or read as a state file (`+Files`).
    let ownFiles: LibraryFiles?

    /// The whole state, read in one transaction.
    public func export() throws -> StateExport {
        try writer.read { db in
            // Five queries for the whole library, grouped by book here: one set of queries per
            // book took seconds on 10,000 books.
            let books = try Book.order(Book.Columns.title).fetchAll(db)
            var itemsOfBook: [Int64: [(mediaId: Int64, fingerprint: String)]] = [:]
            let itemRows = try Row.fetchCursor(db, sql: """
                SELECT bookItem.bookId, media.id, media.fingerprint FROM bookItem JOIN media ON media.id = bookItem.mediaId
                ORDER BY bookItem.bookId, bookItem.position
                """)
            while let row = try itemRows.next() {
                itemsOfBook[row[0], default: []].append((row[1], row[2]))
            }
            let positions = Dictionary(uniqueKeysWithValues: try Position.fetchAll(db).map { ($0.bookId, $0) })
            let settings = Dictionary(uniqueKeysWithValues: try BookSettings.fetchAll(db).map { ($0.bookId, $0) })
            let bookmarks = Dictionary(grouping: try Bookmark.order(Bookmark.Columns.createdAt).fetchAll(db), by: \.bookId)
            let queue = try QueueEntry.order(Column("position")).fetchAll(db)
            let queuePlaces = Dictionary(uniqueKeysWithValues: queue.enumerated().map { ($1.bookId, $0 + 1) })
            let preferences = try PlayerPreferences.fetchOne(db) ?? PlayerPreferences()
            let userChapters = Dictionary(grouping: try UserChapter.fetchAll(db), by: \.bookId)
            return StateExport(exportedAt: Date(), books: books.map { book in
                let items = itemsOfBook[book.id!] ?? []
                let fingerprints = Dictionary(items.map { ($0.mediaId, $0.fingerprint) }, uniquingKeysWith: { first, _ in first })
                let position = positions[book.id!].flatMap { p in
                    fingerprints[p.mediaId].map { StateExport.ExportedPosition(item: $0, frame: p.frame, updatedAt: p.updatedAt) }
                }
                let exportedSettings = settings[book.id!].map {
                    var exported = StateExport.ExportedSettings(volume: $0.volume, speed: $0.speed, shuffle: $0.shuffle,
                                                 skipIntervalSeconds: $0.skipIntervalSeconds, sleepTimerSeconds: $0.sleepTimerSeconds,
                                                 repeatMode: $0.repeatMode, speedIsDefault: $0.ownSpeed == nil ? true : nil,
                                                 skipIsDefault: $0.ownSkipIntervalSeconds == nil ? true : nil)
                    exported.skipSilenceMs = $0.ownSkipSilence.map { if case let .on(minimumMs) = $0 { minimumMs } else { 0 } }
                    exported.loudness = $0.loudness
                    exported.skipIntroSeconds = $0.ownSkipIntroSeconds
                    exported.skipOutroSeconds = $0.ownSkipOutroSeconds
                    return exported
                }
                let exportedBookmarks = (bookmarks[book.id!] ?? []).compactMap { b in
                    fingerprints[b.mediaId].map {
                        StateExport.ExportedBookmark(item: $0, frame: b.frame, kind: b.kind, note: b.note, createdAt: b.createdAt)
                    }
                }
                return StateExport.ExportedBook(
                    title: book.title, author: book.author, narrator: book.narrator, series: book.series,
                    seriesNumber: book.seriesNumber, year: book.year, items: items.map(\.fingerprint),
                    finished: book.finishedAt != nil, position: position, settings: exportedSettings,
                    bookmarks: exportedBookmarks, queuePlace: queuePlaces[book.id!],
                    userChapters: Self.exported(userChapters[book.id!], fingerprints: fingerprints))
            }, preferences: StateExport.ExportedPreferences(autoRewind: preferences.autoRewind,
                                                autoRewindMaxSeconds: preferences.autoRewindMaxSeconds,
                                                defaultSpeed: preferences.defaultSpeed,
                                                defaultSkipSeconds: preferences.defaultSkipSeconds,
                                                defaultSleepSeconds: preferences.defaultSleepSeconds,
                                                defaultSkipSilenceMs: preferences.defaultSkipSilenceMs,
                                                loudness: preferences.loudness,
                                                loudnessTargetLUFS: preferences.loudnessTargetLUFS,
                                                defaultSkipIntroSeconds: preferences.defaultSkipIntroSeconds,
                                                defaultSkipOutroSeconds: preferences.defaultSkipOutroSeconds))
        }
    }

    /// Applies an exported state: each exported book is matched to the library's book holding
    /// most of its fingerprints; its position, settings and finished mark are replaced and its
    /// bookmarks added (an identical bookmark is not added twice). One transaction: settings out
    /// of range refuse the whole file, naming the book.
    public func apply(_ document: StateExport) throws -> StateImportReport {
        guard document.format == "abplayer-state" else { throw LibraryError.invalid("not an abplayer state file (format '\(document.format)')") }
        guard document.version <= StateExport.currentVersion else {
            throw LibraryError.invalid("state file version \(document.version) is newer than this abplayer understands (\(StateExport.currentVersion))")
        }
        let state = document.inCurrentUnits()
        return try writer.write { db in
            var report = StateImportReport()
            var queued: [(place: Int, bookId: Int64)] = []
            for exported in state.books {
                let json = String(decoding: try JSONEncoder().encode(exported.items), as: UTF8.self)
                guard let bookId = try Int64.fetchOne(db, sql: """
                    SELECT bookItem.bookId FROM bookItem JOIN media ON media.id = bookItem.mediaId
                    WHERE media.fingerprint IN (SELECT value FROM json_each(?))
                    GROUP BY bookItem.bookId ORDER BY count(*) DESC LIMIT 1
                    """, arguments: [json]) else {
                    report.unmatched.append(exported.title)
                    continue
                }
                let media = try BookStore.items(db, bookId: bookId)
                let byFingerprint = Dictionary(media.map { ($0.fingerprint, $0.id!) }, uniquingKeysWith: { first, _ in first })
                if let position = exported.position, let mediaId = byFingerprint[position.item] {
                    try Position(bookId: bookId, mediaId: mediaId, frame: position.frame, updatedAt: position.updatedAt).upsert(db)
                }
                if let s = exported.settings {
                    var settings = BookSettings(bookId: bookId)
                    settings.volume = s.volume
                    settings.speed = s.speed
                    settings.shuffle = s.shuffle
                    settings.skipIntervalSeconds = s.skipIntervalSeconds
                    settings.sleepTimerSeconds = s.sleepTimerSeconds
                    settings.repeatMode = s.repeatMode ?? .off
                    if s.speedIsDefault == true { settings.ownSpeed = nil }
                    if s.skipIsDefault == true { settings.ownSkipIntervalSeconds = nil }
                    settings.ownSkipSilence = s.skipSilenceMs.map { $0 == 0 ? .off : .on(minimumMs: $0) }
                    settings.loudness = s.loudness
                    settings.ownSkipIntroSeconds = s.skipIntroSeconds
                    settings.ownSkipOutroSeconds = s.skipOutroSeconds
                    do {
                        try settings.save(db)
                    } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                        throw LibraryError.invalid("\(exported.title): settings out of range (volume \(s.volume), speed \(s.speed), "
                            + "skip \(s.skipIntervalSeconds), sleep timer \(s.sleepTimerSeconds.map { "\($0)" } ?? "none")): "
                            + "use volume 0–150 %, speed 0.5–4, skip and sleep timer > 0 s, intro and outro 0–600 s; nothing was imported")
                    }
                }
                try db.execute(sql: "UPDATE book SET finishedAt = ? WHERE id = ?",
                               arguments: [exported.finished ? StoredDate.text(Date()) : nil, bookId])
                // What the files and folders said in the other library, where this one's say nothing.
                try db.execute(sql: """
                    UPDATE book SET narrator = ifnull(narrator, ?), series = ifnull(series, ?),
                        seriesNumber = ifnull(seriesNumber, ?), year = ifnull(year, ?) WHERE id = ?
                    """, arguments: [exported.narrator, exported.series, exported.seriesNumber, exported.year, bookId])
                for b in exported.bookmarks {
                    guard let mediaId = byFingerprint[b.item] else { continue }
                    let duplicate = try Bookmark.filter(Bookmark.Columns.bookId == bookId)
                        .filter(Column("mediaId") == mediaId && Column("frame") == b.frame && Bookmark.Columns.kind == b.kind.rawValue)
                        .fetchCount(db) > 0
                    if duplicate { continue }
                    var bookmark = Bookmark(id: nil, bookId: bookId, mediaId: mediaId, frame: b.frame, kind: b.kind,
                                            note: b.note, createdAt: b.createdAt)
                    try bookmark.insert(db)
                }
                try Self.importUserChapters(exported, bookId: bookId, byFingerprint: byFingerprint, db)
                if let place = exported.queuePlace { queued.append((place, bookId)) }
                report.matched.append(exported.title)
            }
            // The queue as exported, when the file has one: its order, by place.
            if state.books.contains(where: { $0.queuePlace != nil }) {
                try QueueEntry.deleteAll(db)
                for (index, entry) in queued.sorted(by: { $0.place < $1.place }).enumerated() {
                    try QueueEntry(bookId: entry.bookId, position: index).save(db)
                }
            }
            if let exported = state.preferences {
                var preferences = try PlayerPreferences.fetchOne(db) ?? PlayerPreferences()
                preferences.autoRewind = exported.autoRewind
                preferences.autoRewindMaxSeconds = exported.autoRewindMaxSeconds
                // Only what the file says: a file from before the defaults leaves them as they are.
                if let speed = exported.defaultSpeed { preferences.defaultSpeed = speed }
                if let skip = exported.defaultSkipSeconds { preferences.defaultSkipSeconds = skip }
                if let sleep = exported.defaultSleepSeconds { preferences.defaultSleepSeconds = sleep }
                if let skipSilence = exported.defaultSkipSilenceMs { preferences.defaultSkipSilenceMs = skipSilence }
                if let loudness = exported.loudness { preferences.loudness = loudness }
                if let target = exported.loudnessTargetLUFS { preferences.loudnessTargetLUFS = target }
                if let intro = exported.defaultSkipIntroSeconds { preferences.defaultSkipIntroSeconds = intro }
                if let outro = exported.defaultSkipOutroSeconds { preferences.defaultSkipOutroSeconds = outro }
                try preferences.save(db)
            }
            return report
        }
    }
}
