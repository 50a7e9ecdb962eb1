public import Foundation
public import GRDB

/// A book's loudness as EBU R128 measures it (libebur128, through `LoudnessMeter` in Listening).
public struct LoudnessReading: Sendable, Equatable, Codable {
    /// Integrated loudness, LUFS; nil for silence (no loudness: no gain is applied).
    public var integratedLUFS: Double?
    /// The highest peak of any channel, dBTP (dBFS when `isTruePeak` is false); nil for silence.
    public var peakDBTP: Double?
    /// Oversampled (true peak) or the samples' own peak.
    public var isTruePeak: Bool

    public init(integratedLUFS: Double?, peakDBTP: Double?, isTruePeak: Bool) {
        self.integratedLUFS = integratedLUFS
        self.peakDBTP = peakDBTP
        self.isTruePeak = isTruePeak
    }
}

/// Why a book's loudness could not be measured, naming the file.
public struct LoudnessFailure: Error, CustomStringConvertible, Sendable, Equatable {
    public let description: String
    /// The file that could not be opened or read, when that is what failed: a player that
    /// already said the file is missing or broken need not say it again.
    public let file: String?
    public init(_ description: String, file: String? = nil) {
        self.description = description
        self.file = file
    }
}

/// The stored measure of a book (the table `bookLoudness`, LibrarySchema v8).
public struct BookLoudness: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "bookLoudness"
    public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { StoredDate.encoding }
    public static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { StoredDate.decoding }
    public var bookId: Int64
    public var integratedLUFS: Double?
    public var peakDBTP: Double?
    public var isTruePeak: Bool
    /// The items it was measured over (`key(of:)`): when the book's items differ now, it is stale.
    public var measuredOver: String
    public var measuredAt: Date

    public var reading: LoudnessReading {
        LoudnessReading(integratedLUFS: integratedLUFS, peakDBTP: peakDBTP, isTruePeak: isTruePeak)
    }

    /// What a measure covers: each item's media id and content fingerprint, in play order. A
    /// file replaced by other audio (a new fingerprint), an item added, removed or moved: another key.
    public static func key(of media: [Media]) -> String {
        media.map { "\($0.id ?? 0):\($0.fingerprint)" }.joined(separator: " ")
    }
}

extension SettingsStore {
    /// The book's loudness if measured over the items it has now; nil when never measured, or
    /// measured over other items (a rescan or an edit changed them since).
    public func loudness(ofBook bookId: Int64) throws -> LoudnessReading? {
        try writer.read { db in
            guard let stored = try BookLoudness.fetchOne(db, key: bookId) else { return nil }
            return stored.measuredOver == BookLoudness.key(of: try BookStore.items(db, bookId: bookId)) ? stored.reading : nil
        }
    }

    /// Stores a measure made over `media` (the book's items when the measure started). When the
    /// book's items changed meanwhile the measure is stored all the same, and is stale at once.
    /// Keeps a book's measure; nothing when the book is no longer in the library.
    public func saveLoudness(_ reading: LoudnessReading, ofBook bookId: Int64, measuredOver media: [Media], at date: Date = Date()) throws {
        let record = BookLoudness(bookId: bookId, integratedLUFS: reading.integratedLUFS, peakDBTP: reading.peakDBTP,
                                  isTruePeak: reading.isTruePeak, measuredOver: BookLoudness.key(of: media), measuredAt: date)
        try writer.write { db in
            // A book removed while it was being measured (the measure runs for minutes in the
            // background) has nothing left to keep the measure for: not an error.
            guard try Book.exists(db, key: bookId) else { return }
            try record.save(db)
        }
    }
}
