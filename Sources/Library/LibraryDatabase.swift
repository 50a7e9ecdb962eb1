public import Foundation
public import GRDB

/// The one access point to a library database: opens it, migrates it, and offers methods named
/// for what the player wants (files `LibraryDatabase+Feature.swift`). Every method runs in its
/// own short transaction.
public final class LibraryDatabase: Sendable {
    public let writer: any DatabaseWriter
    /// Where the database lives; nil in memory.
    public let path: String?

    /// Opens (creating if needed) the library at `path` in WAL mode and migrates it. Refuses,
    /// without writing anything, a database made by a newer abplayer.
    public init(path: String) throws {
        let path = URL(fileURLWithPath: path).standardizedFileURL.path
        // Checked through a read-only connection first: opening a DatabasePool writes (GRDB
        // creates and drops a table to make sure the WAL file exists), and a database from a newer
        // abplayer must be left exactly as it is.
        if FileManager.default.fileExists(atPath: path) {
            var readOnly = Self.configuration
            readOnly.readonly = true
            let probe: DatabaseQueue
            do {
                probe = try DatabaseQueue(path: path, configuration: readOnly)
            } catch {
                throw LibraryError.cannotOpen(path: path, reason: "\(error)")
            }
            try Self.refuseNewerSchema(probe, name: path)
            try probe.close()
        }
        do {
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            writer = try DatabasePool(path: path, configuration: Self.configuration)
        } catch {
            throw LibraryError.cannotOpen(path: path, reason: "\(error)")
        }
        self.path = path
        try Self.migrate(writer, name: path)
    }

    /// A private in-memory library, for tests and throwaway runs.
    public init() throws {
        writer = try DatabaseQueue(configuration: Self.configuration)
        path = nil
        try Self.migrate(writer, name: "in-memory library")
    }

    /// `$XDG_DATA_HOME/abplayer/library.sqlite`, else `~/.local/share/abplayer/library.sqlite`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return base + "/abplayer/library.sqlite"
    }

    private static var configuration: Configuration {
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
            throw LibraryError.cannotOpen(path: name, reason: "not an abplayer library? (\(error))")
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
            throw LibraryError.cannotOpen(path: name, reason: "cannot bring the schema up to date: \(error)")
        }
    }
}

public enum LibraryError: Error, Equatable, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)
    case newerSchema(path: String, migrations: [String])
    case notFound(String)
    case invalid(String)

    public var description: String {
        switch self {
        case let .cannotOpen(path, reason): "\(path): cannot open the library: \(reason)"
        case let .newerSchema(path, migrations):
            "\(path): made by a newer abplayer (schema \(migrations.joined(separator: ", "))); "
                + "left untouched — upgrade abplayer or use another --library"
        case let .notFound(what): what
        case let .invalid(what): what
        }
    }
}
