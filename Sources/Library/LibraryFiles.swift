import Foundation

/// The files of a library that only SQLite (and the player's lock) may open: the database, its
/// write-ahead log, shared memory, rollback journal and `.lock`. Never to be read as media.
///
/// Why: SQLite's locks are POSIX locks, and the kernel drops *all* of a process's locks on a file
/// when *any* descriptor of that file in the process is closed. A library kept beside its books
/// (`--library ~/Audiobooks/library.sqlite`) was in a folder the player watches; when another
/// process closed the log, the watch opened it to read its first bytes, as it does any new file,
/// and closed it: the player's connection lost its locks without knowing. The next `abplayer`
/// command (or sqlite3) to open the library then took itself for its last user and deleted the
/// log, into which the player went on saving its place every second, lost when it quit.
struct LibraryFiles: Sendable {
    /// The database's folder (its real path) and file name, as the library was named and, when
    /// that is a symbolic link, as the file really is: SQLite puts the log and shared memory
    /// beside the real file, and the link itself opens the database too.
    private let places: [(folder: String, name: String)]
    static let suffixes: Set<Substring> = ["", "-wal", "-shm", "-journal", ".lock"]

    init(database path: String) {
        func place(_ path: String) -> (folder: String, name: String) {
            let folder = (path as NSString).deletingLastPathComponent
            return (FileKind.realPath(folder.isEmpty ? "." : folder) ?? folder, (path as NSString).lastPathComponent)
        }
        let named = place(path)
        let real = FileKind.realPath(path).map(place)
        places = real.map { $0 == named ? [named] : [named, $0] } ?? [named]
    }

    /// Whether `path` names one of them (by any path to their folder: links resolved). The name
    /// is looked at first, so another file costs no system call.
    func contains(_ path: String) -> Bool {
        let candidate = (path as NSString).lastPathComponent
        let named = places.filter { candidate.hasPrefix($0.name) && Self.suffixes.contains(candidate.dropFirst($0.name.count)) }
        guard !named.isEmpty else { return false }
        let parent = (path as NSString).deletingLastPathComponent
        let folder = FileKind.realPath(parent.isEmpty ? "." : parent) ?? parent
        return named.contains { $0.folder == folder }
    }
}
