import Foundation
import GRDB

/// What the listener set: each book's settings (speed, skip, sleep timer, ...), the player's
/// preferences and defaults, and each book's measured loudness (`SettingsStore+Loudness`).
public struct SettingsStore: Sendable {
    let writer: any DatabaseWriter

    /// The book's settings: its own where it has them, the listener's defaults (`set speed 1.3`)
    /// where it has none.
    public func ofBook(_ bookId: Int64) throws -> BookSettings {
        try writer.read { db in
            var settings = try BookSettings.fetchOne(db, key: bookId) ?? BookSettings(bookId: bookId)
            settings.defaults = BookSettings.Defaults(try PlayerPreferences.fetchOne(db, key: 1) ?? PlayerPreferences())
            return settings
        }
    }

    /// Saves a book's settings; the database's CHECKs refuse values out of range.
    public func save(_ settings: BookSettings) throws {
        do {
            try writer.write { db in try settings.save(db) }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            throw LibraryError.invalid("setting out of range (volume 0–150 %, speed 0.5–4, skip > 0 s, sleep timer > 0 s, intro and outro 0–10 min)")
        }
    }

    public func playerPreferences() throws -> PlayerPreferences {
        try writer.read { db in try PlayerPreferences.fetchOne(db, key: 1) ?? PlayerPreferences() }
    }

    /// Saves the preferences; the database's CHECKs refuse defaults out of range.
    public func savePlayerPreferences(_ preferences: PlayerPreferences) throws {
        do {
            try writer.write { db in try preferences.save(db) }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            throw LibraryError.invalid("preference out of range (speed 0.5–4, skip 1 s–1 h, sleep 1 s–24 h, rewind 1 s–10 m, intro and outro 0–10 min)")
        }
    }
}
