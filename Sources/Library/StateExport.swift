public import Foundation

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
///                              "loudness": Bool?,   // the book's own; absent: the listener's default
///                              "skipIntroSeconds": Double?, "skipOutroSeconds": Double? }?,   // the same; 0: none
///                "queuePlace": Int?,                      // 1 = plays next; absent when not queued
///                "bookmarks": [ { "item": fingerprint, "frame": Int, "kind": "user"|"beforeSeek"|...,
///                                 "note": String?, "createdAt": ISO-8601 } ],
///                "userChapters": [ { "item": fingerprint, "frame": Int, "title": String } ]? } ],
///   "preferences": { "autoRewind": Bool, "autoRewindMaxSeconds": Double,
///                    "defaultSpeed": Double?, "defaultSkipSeconds": Double?, "defaultSleepSeconds": Double?,
///                    "defaultSkipSilenceMs": Int?, "loudness": Bool?, "loudnessTargetLUFS": Double?,
///                    "defaultSkipIntroSeconds": Double?, "defaultSkipOutroSeconds": Double? }? }
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
        /// The book's own intro and outro left out of every item (0: none); absent: the
        /// listener's default (since v14).
        public var skipIntroSeconds: Double?
        public var skipOutroSeconds: Double?

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
        /// Absent: none set (since v14).
        public var defaultSkipIntroSeconds: Double?
        public var defaultSkipOutroSeconds: Double?
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
