public import Foundation
import GRDB

/// The listener's state — positions, bookmarks, settings — as a JSON document for backups and
/// moving between machines. Books are identified by their items' fingerprints, never by paths or
/// database ids, so an import finds them in another library of the same files.
///
/// Schema (version 2):
/// ```
/// { "format": "abplayer-state", "version": 2, "exportedAt": ISO-8601,
///   "books": [ { "title": String, "author": String?, "narrator": String?,
///                "series": String?, "seriesNumber": Double?, "year": Int?,   // filled in where the book has none
///                "items": [fingerprint, ...],            // in play order; "size:fnv1a64hex"
///                "finished": Bool,
///                "position": { "item": fingerprint, "frame": Int, "updatedAt": ISO-8601 }?,
///                "settings": { "volume": percent 0-150, "speed": 0.5-4, "shuffle": Bool,
///                              "skipIntervalSeconds": Double, "sleepTimerSeconds": Double?,
///                              "repeatMode": "off"|"item"|"book"?,
///                              "speedIsDefault": true?, "skipIsDefault": true?,   // follows the listener's default
///                              "skipSilenceMs": Int?,   // 0 off, else the minimum; absent: the default
///                              "loudness": Bool? }?,   // the book's own; absent: the listener's default
///                "queuePlace": Int?,                      // 1 = plays next; absent when not queued
///                "bookmarks": [ { "item": fingerprint, "frame": Int, "kind": "user"|"beforeSeek"|...,
///                                 "note": String?, "createdAt": ISO-8601 } ],
///                "userChapters": [ { "item": fingerprint, "frame": Int, "title": String } ]? } ],
///   "preferences": { "autoRewind": Bool, "autoRewindMaxSeconds": Double,
///                    "defaultSpeed": Double?, "defaultSkipSeconds": Double?, "defaultSleepSeconds": Double?,
///                    "defaultSkipSilenceMs": Int?, "loudness": Bool?, "loudnessTargetLUFS": Double? }? }
/// (A book's measured loudness is not exported: it is measured again from the files.)
/// ```
/// Fields marked `?` may be absent (files from before they existed import as before). `narrator`,
/// `series`, `seriesNumber` and `year` were added within version 2 (older readers ignore them), and
/// so were the listener's defaults and `speedIsDefault`/`skipIsDefault`: a book that follows the
/// default is written with the built-in speed 1 and skip 30 s, which an older reader takes as its own.
/// `userChapters` (the listener's own chapters, which replace the embedded ones) too: absent when
/// the book has none, and an older reader ignores them.
/// Frames count at the item's own sample rate.
///
/// Versions (`import-state` reads every one; `export` writes the newest):
/// - 2: settings in the units people use everywhere else: `volume` in percent (0-150),
///   `sleepTimerSeconds` in seconds, `speed` 0.5-4.
/// - 1: `volume` was a gain factor (0-4, 1 = unchanged), the sleep timer was `sleepTimerMinutes`,
///   `speed` could be 0.25-4. Read as library migration v4 converts: volume x 100 (at most 150),
///   minutes x 60, speeds under 0.5 as 0.5 (`StateExport+Version1.swift`).
public struct StateExport: Codable, Sendable, Equatable {
    public struct ExportedPosition: Codable, Sendable, Equatable {
        public var item: String
        public var frame: Int64
        public var updatedAt: Date
    }

    public struct ExportedSettings: Codable, Sendable, Equatable {
        /// Percent (a gain factor in version 1).
        public var volume: Double
        public var speed: Double
        public var shuffle: Bool
        public var skipIntervalSeconds: Double
        public var sleepTimerSeconds: Double?
        /// Version 1's sleep timer: read from old files, never written (nil encodes as absent).
        public var sleepTimerMinutes: Double?
        public var repeatMode: RepeatMode?
        /// True when the book has no speed (skip interval) of its own: the listener's default
        /// applies; absent otherwise.
        public var speedIsDefault: Bool?
        public var skipIsDefault: Bool?
        /// The book's own skip silence: 0 off, else the shortest silence shortened in
        /// milliseconds; absent when the book follows the listener's default (as in older files).
        public var skipSilenceMs: Int?
        /// Evened out or not by the book's own setting; absent: the listener's default (since v8).
        public var loudness: Bool?

        public init(volume: Double, speed: Double, shuffle: Bool, skipIntervalSeconds: Double,
                    sleepTimerSeconds: Double?, sleepTimerMinutes: Double? = nil, repeatMode: RepeatMode?,
                    speedIsDefault: Bool? = nil, skipIsDefault: Bool? = nil) {
            self.speedIsDefault = speedIsDefault
            self.skipIsDefault = skipIsDefault
            self.volume = volume
            self.speed = speed
            self.shuffle = shuffle
            self.skipIntervalSeconds = skipIntervalSeconds
            self.sleepTimerSeconds = sleepTimerSeconds
            self.sleepTimerMinutes = sleepTimerMinutes
            self.repeatMode = repeatMode
        }
    }

    public struct ExportedBookmark: Codable, Sendable, Equatable {
        public var item: String
        public var frame: Int64
        public var kind: BookmarkKind
        public var note: String?
        public var createdAt: Date
    }

    public struct ExportedBook: Codable, Sendable, Equatable {
        public var title: String
        public var author: String?
        public var narrator: String?
        public var series: String?
        public var seriesNumber: Double?
        public var year: Int?
        public var items: [String]
        public var finished: Bool
        public var position: ExportedPosition?
        public var settings: ExportedSettings?
        public var bookmarks: [ExportedBookmark]
        public var queuePlace: Int?
        /// Nil when the book has none of its own.
        public var userChapters: [ExportedUserChapter]? = nil
    }

    public struct ExportedUserChapter: Codable, Sendable, Equatable {
        public var item: String
        public var frame: Int64
        public var title: String
    }

    /// The version `export` writes.
    public static let currentVersion = 2

    public var format = "abplayer-state"
    public var version = currentVersion
    public var exportedAt: Date
    public var books: [ExportedBook]
    public var preferences: ExportedPreferences?

    public struct ExportedPreferences: Codable, Sendable, Equatable {
        public var autoRewind: Bool
        public var autoRewindMaxSeconds: Double
        public var defaultSpeed: Double?
        public var defaultSkipSeconds: Double?
        public var defaultSleepSeconds: Double?
        /// As `ExportedSettings.skipSilenceMs`; absent: none set.
        public var defaultSkipSilenceMs: Int?
        public var loudness: Bool?
        public var loudnessTargetLUFS: Double?
    }

    public static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    public static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

/// What an import of a state document did.
public struct StateImportReport: Sendable {
    public var matched: [String] = []
    public var unmatched: [String] = []
}

extension LibraryDatabase {
    public func exportState() throws -> StateExport {
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
                                                loudnessTargetLUFS: preferences.loudnessTargetLUFS))
        }
    }

    /// Applies an exported state: each exported book is matched to the library's book holding
    /// most of its fingerprints; its position, settings and finished mark are replaced and its
    /// bookmarks added (an identical bookmark is not added twice). One transaction: settings out
    /// of range refuse the whole file, naming the book.
    public func importState(_ document: StateExport) throws -> StateImportReport {
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
                    do {
                        try settings.save(db)
                    } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                        throw LibraryError.invalid("\(exported.title): settings out of range (volume \(s.volume), speed \(s.speed), "
                            + "skip \(s.skipIntervalSeconds), sleep timer \(s.sleepTimerSeconds.map { "\($0)" } ?? "none")): "
                            + "use volume 0–150 %, speed 0.5–4, skip and sleep timer > 0 s; nothing was imported")
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
                try preferences.save(db)
            }
            return report
        }
    }
}
