public import Foundation
public import GRDB
import PathNames

/// The one access point to a library database: opens it, migrates it, and hands out one store
/// per feature (`books`, `shelves`, ...), each a small type over the one database, as GRDB
/// advises for a large app. Every store method runs in its own short transaction.
public final class LibraryDatabase: Sendable {
    public let writer: any DatabaseWriter
    /// Where the database lives; nil in memory.
    public let path: String?
    /// The database's own files, which an import or the watch must never open (`LibraryFiles`).
    let ownFiles: LibraryFiles?

    public let books: BookStore
    public let shelves: ShelfStore
    public let catalog: CatalogStore
    public let settings: SettingsStore
    public let queue: QueueStore
    public let positions: PositionStore
    public let history: HistoryStore
    public let bookmarks: BookmarkStore
    public let sync: SyncStore
    public let media: MediaStore

    /// Opens (creating if needed) the library at `path` in WAL mode and migrates it. Refuses,
    /// without writing anything, a file that is not an abplayer library, a damaged one, and one
    /// made by a newer abplayer.
    public convenience init(path: String) throws {
        let path = URL(fileURLWithPath: path).standardizedFileURL.path
        // Checked by reading only: a file that is not an abplayer library, is damaged, or comes
        // from a newer abplayer must be left exactly as it is.
        if let reason = Self.readOnlyReason(path) {
            throw LibraryError.cannotOpen(path: path, reason: "it is read-only (\(reason)), and abplayer writes your place into it "
                + "every second: make it writable, or copy it somewhere writable and name the copy with --library")
        }
        try Self.checkIdentity(path: path)
        let writer: DatabasePool
        do {
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            writer = try DatabasePool(path: path, configuration: Self.configuration)
        } catch {
            // A full disk fails here (the WAL file is written): say so, and what to do.
            throw LibraryError.describing(error, library: path) ?? .cannotOpen(path: path, reason: LibraryError.oneLine(error))
        }
        try self.init(writer: writer, path: path, name: path)
    }

    /// A private in-memory library, for tests and throwaway runs.
    public convenience init() throws {
        try self.init(writer: try DatabaseQueue(configuration: Self.configuration), path: nil, name: "in-memory library")
    }

    /// Migrates the database `writer` opened, and gives each store its access to it.
    private init(writer: any DatabaseWriter, path: String?, name: String) throws {
        self.writer = writer
        self.path = path
        ownFiles = path.map { LibraryFiles(database: $0) }
        books = BookStore(writer: writer, ownFiles: ownFiles)
        shelves = ShelfStore(writer: writer)
        catalog = CatalogStore(writer: writer)
        settings = SettingsStore(writer: writer)
        queue = QueueStore(writer: writer)
        positions = PositionStore(writer: writer)
        history = HistoryStore(writer: writer)
        bookmarks = BookmarkStore(writer: writer)
        sync = SyncStore(writer: writer)
        media = MediaStore(writer: writer, ownFiles: ownFiles)
        try Self.migrate(writer, name: name)
    }

    /// Why the library at `path` cannot be written, or nil when it can: on a file system mounted
    /// read-only, or a file (or, for a new library, a folder) this user may not write. Told apart
    /// from damage: SQLite says only "unable to open database file" for both.
    static func readOnlyReason(_ path: String) -> String? {
        var where_ = path
        while !FileManager.default.fileExists(atPath: where_) {
            let parent = (where_ as NSString).deletingLastPathComponent
            if parent == where_ || parent.isEmpty { return nil }
            where_ = parent
        }
        var system = statvfs()
        if statvfs(where_, &system) == 0, system.f_flag & UInt(ST_RDONLY) != 0 { return "read-only file system" }
        if access(where_, W_OK) != 0, errno == EACCES || errno == EROFS || errno == EPERM {
            return where_ == path ? "no permission to write it" : "no permission to write in \(where_)"
        }
        return nil
    }

    /// `$XDG_DATA_HOME/abplayer/library.sqlite`, else `~/.local/share/abplayer/library.sqlite`;
    /// nil when neither is an absolute path (`noDefaultPathReason` says why).
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        XDGDirectory.path("XDG_DATA_HOME", default: ".local/share", environment: environment).map { $0 + "/abplayer/library.sqlite" }
    }

    /// Why there is no default library, in one line that says what to do.
    public static func noDefaultPathReason(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        "no default library: \(XDGDirectory.noDefaultReason("XDG_DATA_HOME", environment: environment)) "
            + "(relative paths are ignored); name one with --library or set HOME to an absolute path"
    }

    static var configuration: Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        // Another abplayer (the REPL and a script) may hold the write lock for a moment.
        configuration.busyMode = .timeout(5)
        return configuration
    }

    private static func refuseNewerSchema(_ reader: any DatabaseReader, name: String) throws {
        let migrator = LibrarySchema.migrator
        let unknown: Set<String>
        do {
            unknown = try reader.read { db in try migrator.appliedIdentifiers(db).subtracting(migrator.migrations) }
        } catch {
            throw LibraryError.damaged(path: name, reason: LibraryError.oneLine(error))
        }
        if !unknown.isEmpty {
            throw LibraryError.newerSchema(path: name, migrations: unknown.sorted())
        }
    }

    private static func migrate(_ writer: any DatabaseWriter, name: String) throws {
        try refuseNewerSchema(writer, name: name)
        do {
            try LibrarySchema.migrator.migrate(writer)
        } catch {
            throw LibraryError.cannotOpen(path: name, reason: "cannot bring the schema up to date: \(LibraryError.oneLine(error))")
        }
    }
}

public enum LibraryError: Error, Equatable, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)
    case newerSchema(path: String, migrations: [String])
    /// An SQLite file (or a file) that another program owns: never written. `otherObjects`: its
    /// views, triggers and indexes ("view totals"), said when it has no tables.
    case notALibrary(path: String, tables: [String], applicationId: Int32, otherObjects: [String], userVersion: Int32)
    /// Unreadable as a database, truncated, or missing what every library has: never written.
    case damaged(path: String, reason: String)
    /// SQLite failed while the library was in use (a full disk, a damaged page, a lock).
    case database(path: String, code: Int32, message: String)
    case notFound(String)
    case invalid(String)

    public var description: String {
        switch self {
        case let .cannotOpen(path, reason): "\(path): cannot open the library: \(reason)"
        case let .newerSchema(path, migrations):
            "\(path): made by a newer abplayer (schema \(migrations.joined(separator: ", "))); "
                + "left untouched — upgrade abplayer or use another --library"
        case let .notALibrary(path, tables, applicationId, otherObjects, userVersion):
            "\(path) is not an abplayer library (" + (
                !tables.isEmpty ? "it has tables " + Self.list(tables)
                    : !otherObjects.isEmpty ? "it has " + Self.list(otherObjects)
                    : applicationId != 0 ? "another program's: application id \(applicationId)"
                    : "another program's: user_version \(userVersion)")
                + "); left untouched: name another file with --library"
        case let .damaged(path, reason):
            "\(path): the library is damaged (\(reason)); left untouched: restore it from a backup or name another file with --library"
        case let .database(path, code, message):
            switch code {
            case 13: "\(path): the disk is full (SQLite error 13: \(message)); the step that failed was not saved: free some space and run the command again"
            case 11, 26: "\(path): the library is damaged (SQLite error \(code): \(message)): restore it from a backup or name another file with --library"
            case 5, 6: "\(path): the library is busy (SQLite error \(code): \(message)): another abplayer is writing to it; try again"
            case 8, 10, 14, 23: "\(path): cannot write the library (SQLite error \(code): \(message)): check the disk, the file's permissions and free space"
            default: "\(path): SQLite error \(code): \(message)"
            }
        case let .notFound(what): what
        case let .invalid(what): what
        }
    }

    /// The first six names, and how many more.
    private static func list(_ names: [String]) -> String {
        names.prefix(6).joined(separator: ", ") + (names.count > 6 ? " and \(names.count - 6) more" : "")
    }

    /// An error as one line: an SQLite error without the SQL GRDB appends (a failed migration
    /// printed 64 lines of it), anything else with its line breaks folded.
    public static func oneLine(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            return "SQLite error \(error.resultCode.rawValue): " + (error.message ?? "\(error.resultCode)")
                .split(whereSeparator: \.isNewline).joined(separator: " ")
        }
        return "\(error)".split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// `error` as a library error naming the file (`library`, else "the library"): itself, or an
    /// SQLite error met while the library was in use; nil for any other error.
    public static func describing(_ error: any Error, library: String?) -> LibraryError? {
        if let error = error as? LibraryError { return error }
        // The sync folder's own journal, as one line that says what to do.
        if let error = error as? SyncJournalWriteError { return .invalid("sync: \(error)") }
        if let error = error as? SyncJournalError { return .invalid("sync: \(error)") }
        guard let error = error as? DatabaseError else { return nil }
        return .database(path: library ?? "the library", code: error.resultCode.rawValue,
                         message: (error.message ?? "\(error.resultCode)").split(whereSeparator: \.isNewline).joined(separator: " "))
    }
}
