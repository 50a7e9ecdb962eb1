import Foundation
import GRDB

extension LibraryDatabase {
    /// The book's settings: its own where it has them, the listener's defaults (`set speed 1.3`)
    /// where it has none.
    public func settings(ofBook bookId: Int64) throws -> BookSettings {
        try writer.read { db in
            var settings = try BookSettings.fetchOne(db, key: bookId) ?? BookSettings(bookId: bookId)
            settings.defaults = BookSettings.Defaults(try PlayerPreferences.fetchOne(db, key: 1) ?? PlayerPreferences())
            return settings
        }
    }

    /// Saves a book's settings; the database's CHECKs refuse values out of range.
    public func saveSettings(_ settings: BookSettings) throws {
        do {
            try writer.write { db in try settings.save(db) }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            throw LibraryError.invalid("setting out of range (volume 0–150 %, speed 0.5–4, skip > 0 s, sleep timer > 0 s)")
        }
    }
}
