import Foundation
import GRDB

/// Whether a file is an abplayer library, worked out by reading only: `--library` may name any
/// file, and opening a `DatabasePool` writes (it switches the journal to WAL and creates and drops
/// a table), so a file that is not ours, or is damaged, must be refused before that.
extension LibraryDatabase {
    /// `PRAGMA application_id` of an abplayer library: "abpl" in ASCII, set by a migration.
    static let applicationId: Int32 = 0x6162_706C

    /// Throws a `LibraryError` unless `path` is missing, empty (0 bytes), an SQLite database that
    /// holds nothing (no schema object at all, application id and user_version 0: what `sqlite3
    /// FILE 'VACUUM'` makes), or an abplayer library (marked by `applicationId`, or, made before
    /// that mark, holding GRDB's record of our first migration). A file with only a view, or only
    /// a user_version, is another program's: migrating it would write 35 objects into it.
    static func checkIdentity(path: String) throws {
        switch FileKind.of(path: path).kind {
        case .missing: return
        case .regular: break
        default: throw LibraryError.cannotOpen(path: path, reason: "not a regular file: name a file with --library")
        }
        guard let handle = FileHandle(forReadingAtPath: path), let size = try? Int(handle.seekToEnd()),
              (try? handle.seek(toOffset: 0)) != nil, let header = try? handle.read(upToCount: 100) ?? Data()
        else {
            throw LibraryError.cannotOpen(path: path, reason: "cannot read the file: check its permissions")
        }
        try? handle.close()
        if size == 0 { return }
        guard header.count == 100, header.prefix(16).elementsEqual("SQLite format 3\u{0}".utf8) else {
            throw LibraryError.damaged(path: path, reason: "not an SQLite database")
        }
        // The page count at offset 28 is valid when the change counter (24) equals the
        // version-valid-for number (92); SQLite trusts it, and reads past a truncated end only
        // when a query reaches the missing pages.
        func number(at offset: Int) -> Int { header[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        let pageSize = Int(header[16]) << 8 | Int(header[17])
        let pages = number(at: 28)
        // Not while the write-ahead log holds frames: a checkpoint that ran out of disk space may
        // have written page 1 (the new count) but not the pages past the old end, which SQLite
        // still reads from the log (a failed import on a full disk, once a migration's new table
        // had taken the free page the import used to reuse).
        let logBytes = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        if logBytes <= 32, number(at: 24) == number(at: 92), size < (pageSize == 1 ? 65536 : pageSize) * pages {
            throw LibraryError.damaged(path: path, reason: "truncated: \(size) bytes of the \((pageSize == 1 ? 65536 : pageSize) * pages) its header gives")
        }

        var readOnly = configuration
        readOnly.readonly = true
        let facts: (applicationId: Int32, userVersion: Int32, tables: [String], otherObjects: [String], migrations: Set<String>?)
        do {
            let probe = try DatabaseQueue(path: path, configuration: readOnly)
            defer { try? probe.close() }
            facts = try probe.read { db in
                let tables = try String.fetchAll(db, sql: """
                    SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name
                    """)
                let otherObjects = try String.fetchAll(db, sql: """
                    SELECT type || ' ' || name FROM sqlite_master
                    WHERE type <> 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY type, name
                    """)
                let migrations = tables.contains("grdb_migrations")
                    ? try Set(String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")) : nil
                return (try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0, try Int32.fetchOne(db, sql: "PRAGMA user_version") ?? 0,
                        tables, otherObjects, migrations)
            }
        } catch {
            throw LibraryError.damaged(path: path, reason: LibraryError.oneLine(error))
        }

        let isOurs = facts.applicationId == applicationId
            || (facts.applicationId == 0 && facts.migrations?.contains(LibrarySchema.firstVersion) == true)
        if !isOurs {
            let holdsNothing = facts.tables.isEmpty && facts.otherObjects.isEmpty && facts.applicationId == 0 && facts.userVersion == 0
            if holdsNothing { return }
            throw LibraryError.notALibrary(path: path, tables: facts.tables, applicationId: facts.applicationId,
                                           otherObjects: facts.otherObjects, userVersion: facts.userVersion)
        }
        guard let migrations = facts.migrations else {
            if facts.tables.isEmpty { return }
            throw LibraryError.damaged(path: path, reason: "its record of migrations (table grdb_migrations) is missing")
        }
        let unknown = migrations.subtracting(LibrarySchema.migrator.migrations)
        if !unknown.isEmpty { throw LibraryError.newerSchema(path: path, migrations: unknown.sorted()) }
    }
}
