import Foundation

/// Why this device's own journal could not be written.
public enum SyncJournalWriteError: Error, Equatable, CustomStringConvertible {
    /// Something other than a regular file is under the journal's name: a symbolic link (one
    /// planted there would make the player write wherever it points, `~/.bashrc` say), a named
    /// pipe, a device or a folder. Never written through; `abplayer sync repair` replaces it.
    case notARegularFile(path: String, kind: SyncFileKind)
    case cannotWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case let .notARegularFile(path, kind):
            return "\(path): this computer's journal is \(kind.rawValue), not a file; nothing is written through it "
                + "('abplayer sync repair' replaces it with a new journal)"
        case let .cannotWrite(path, reason):
            return "\(path): cannot write (\(reason)); what was not written is written at the next exchange"
        }
    }
}

/// What `abplayer sync repair` did to this device's journal.
public enum SyncJournalRepair: Equatable, Sendable {
    /// There is no journal yet: the next exchange makes one.
    case nothingThere
    /// A regular file: left as it is.
    case alreadyAFile
    /// Something else was there (a link, with where it pointed, a pipe, a device): removed; the
    /// next exchange writes a new journal in its place.
    case removed(kind: SyncFileKind, target: String?)
}

/// The writing side of this device's own journal, and only that: the one file in the sync folder
/// abplayer ever writes, and the folder is written by other machines too. Every open refuses to
/// follow a link (O_NOFOLLOW) and to write to anything but a regular file; a new file is created
/// only where nothing is (O_EXCL).
extension SyncJournalFile {
    /// A journal opened for appending.
    struct Appending {
        let descriptor: Int32
        /// Its size when opened.
        let size: Int
        /// Its last byte is not a newline: a write before this one was cut short and could not
        /// be undone (the disk stayed full), so what comes next starts on a line of its own.
        let endsWithCutLine: Bool
    }

    static func openForAppending(_ path: String) throws -> Appending {
        // O_RDWR rather than O_WRONLY: its last byte is read (pread ignores O_APPEND).
        // O_NONBLOCK: a named pipe put there is refused below, not waited on for a reader.
        let existing = O_RDWR | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC
        var descriptor = open(path, existing)
        if descriptor < 0 && errno == ENOENT {
            descriptor = open(path, existing | O_CREAT | O_EXCL, 0o644)
            // Made by someone else between the two opens: opened as it is, and checked.
            if descriptor < 0 && errno == EEXIST { descriptor = open(path, existing) }
        }
        guard descriptor >= 0 else {
            if errno == ELOOP { throw SyncJournalWriteError.notARegularFile(path: path, kind: .symbolicLink) }
            throw SyncJournalWriteError.cannotWrite(path: path, reason: "cannot open it: \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw SyncJournalWriteError.cannotWrite(path: path, reason: "cannot look at it: \(reason)")
        }
        if let kind = SyncFileKind(mode: info.st_mode) {
            close(descriptor)
            throw SyncJournalWriteError.notARegularFile(path: path, kind: kind)
        }
        var last: UInt8 = 0x0A
        if info.st_size > 0 { _ = pread(descriptor, &last, 1, info.st_size - 1) }
        return Appending(descriptor: descriptor, size: Int(info.st_size), endsWithCutLine: last != 0x0A)
    }

    /// `bytes` at the end of `file`, all of them or none: a write cut short (a full disk) is
    /// truncated back to where the file ended, so it never ends in half a record that the next
    /// append would be glued to.
    static func append(_ bytes: [UInt8], to file: Appending, path: String) throws {
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(file.descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let reason = count == 0 ? "the disk took nothing" : String(cString: strerror(errno))
                if written > 0 { _ = ftruncate(file.descriptor, off_t(file.size)) }
                throw SyncJournalWriteError.cannotWrite(path: path, reason: reason)
            }
            written += count
        }
    }

    /// A new file at `path` holding `bytes` (compaction's, renamed over the journal after): a
    /// stale one from an interrupted compaction is removed first (unlink removes a link, never
    /// what it points to), and the file is made only where nothing is.
    static func writeNew(_ path: String, _ bytes: [UInt8]) throws {
        unlink(path)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw SyncJournalWriteError.cannotWrite(path: path, reason: "cannot create it: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        do {
            try append(bytes, to: Appending(descriptor: descriptor, size: 0, endsWithCutLine: false), path: path)
        } catch {
            unlink(path)
            throw error
        }
    }

    /// Throws when something other than a regular file is at `path` (nothing there is fine): said
    /// before an exchange reads anything, so that it names the way out (`sync repair`) rather
    /// than what reading a link or a pipe there would say. The opens check again: a name can
    /// change between this look and them.
    static func refuseAnythingButAFile(at path: String) throws {
        if let kind = SyncFileKind.of(path) { throw SyncJournalWriteError.notARegularFile(path: path, kind: kind) }
    }

    /// Makes the journal's name a regular file's again: what else is there is removed (a folder
    /// is not: it may hold someone's files).
    static func repair(_ path: String) throws -> SyncJournalRepair {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return .nothingThere }
            throw SyncJournalWriteError.cannotWrite(path: path, reason: "cannot look at it: \(String(cString: strerror(errno)))")
        }
        guard let kind = SyncFileKind(mode: info.st_mode) else { return .alreadyAFile }
        if kind == .folder {
            throw SyncJournalWriteError.cannotWrite(path: path, reason: "it is a folder; move it away yourself, then sync again")
        }
        let target = kind == .symbolicLink ? try? FileManager.default.destinationOfSymbolicLink(atPath: path) : nil
        guard unlink(path) == 0 else {
            throw SyncJournalWriteError.cannotWrite(path: path, reason: "cannot remove it: \(String(cString: strerror(errno)))")
        }
        return .removed(kind: kind, target: target)
    }
}

extension SyncJournalFormat {
    /// `abplayer sync repair`: this device's journal in `folder` made a regular file's name again.
    public static func repairJournal(of device: DeviceID, in folder: String) throws -> SyncJournalRepair {
        try SyncJournalFile.repair(path(of: device, in: folder))
    }
}
