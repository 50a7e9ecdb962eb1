public import GRDB

/// Skip silence as a book or the listener sets it: off, or on, shortening silences of at least
/// `minimumMs` milliseconds. Stored as an integer: 0 off, else the minimum (the database CHECKs
/// the range: `LibrarySchema.v9`).
public enum SkipSilence: Sendable, Hashable, DatabaseValueConvertible {
    case off
    case on(minimumMs: Int)

    public static let defaultMinimumMs = 600
    public static let minimumMsRange = 300...60000

    public var databaseValue: DatabaseValue {
        switch self {
        case .off: 0.databaseValue
        case let .on(minimumMs): minimumMs.databaseValue
        }
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> SkipSilence? {
        guard let stored = Int.fromDatabaseValue(dbValue) else { return nil }
        return stored == 0 ? .off : .on(minimumMs: stored)
    }

    /// The minimum in seconds, nil when off.
    public var minimumSeconds: Double? {
        if case let .on(minimumMs) = self { Double(minimumMs) / 1000 } else { nil }
    }
}
