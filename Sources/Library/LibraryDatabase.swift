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

    /// Books, their items and their own chapters.
    public let books: BookStore
    public let shelves: ShelfStore
    /// The library as views list it: listings, the browser's catalog, tags, smart shelves.
    public let catalog: CatalogStore
    /// Books' settings, the player's preferences and books' loudness.
    public let settings: SettingsStore
    public let queue: QueueStore
    /// Saved places, listening sessions, plays and finished marks.
    public let positions: PositionStore
    /// What was listened to, for `stats` and `history`.
    public let history: HistoryStore
    public let bookmarks: BookmarkStore
    public let sync: SyncStore
    /// The media files: rescans and the watch's passes.
    public let media: MediaStore
    /// The listener's state exported and imported (`StateExport`).
    public let state: StateStore

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
        // The database's own files, which an import, the watch or a state file must never open.
        let ownFiles = path.map { LibraryFiles(database: $0) }
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
        state = StateStore(writer: writer, ownFiles: ownFiles)
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
