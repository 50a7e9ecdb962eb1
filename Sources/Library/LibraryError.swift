import Foundation
import GRDB

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
