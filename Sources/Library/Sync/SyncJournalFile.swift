import Foundation

/// What a journal's name in the sync folder turned out to be when it is not a regular file. The
/// folder is written by other machines and by anyone who can write to the share, and Syncthing
/// carries symbolic links: `open()` on a named pipe blocked every command forever, and a link to
/// /dev/zero was read until the memory ran out.
public enum SyncFileKind: String, Sendable, Equatable {
    case namedPipe = "a named pipe"
    case symbolicLink = "a symbolic link"
    case characterDevice = "a character device"
    case blockDevice = "a block device"
    case socket = "a socket"
    case folder = "a folder"
    case unknown = "an unknown kind of file"

    /// What `mode` (a `stat`'s `st_mode`) says; nil for a regular file.
    init?(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFIFO: self = .namedPipe
        case S_IFLNK: self = .symbolicLink
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFSOCK: self = .socket
        case S_IFDIR: self = .folder
        default: self = .unknown
        }
    }

    /// What `path` itself is (a link not followed); nil for a regular file, or when it cannot be
    /// looked at (then opening it says why).
    static func of(_ path: String) -> SyncFileKind? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return SyncFileKind(mode: info.st_mode)
    }
}

/// The one way a journal file is opened and read, by the folder's readers and by the writer for
/// its own journal alike: never through a link, only a regular file, at most `byteLimit` bytes.
enum SyncJournalFile {
    /// The most of one journal that is read: a compacted journal of 10,000 books is about 6 MB, so
    /// ten times that is far beyond any real library, and a bound on what one file of the share
    /// can make every player allocate (100 devices' journals are read at once).
    static let byteLimit = 64 << 20
    static var byteLimitText: String { "\(byteLimit >> 20) MiB" }

    /// `path`'s bytes into `buffer` (kept from file to file by a reader; grown when too short),
    /// the number read, and whether the file held more than `byteLimit` (then only that is read:
    /// its last line, cut, reads as damaged).
    static func read(path: String, into buffer: inout [UInt8]) throws(SyncJournalError) -> (count: Int, cut: Bool) {
        // O_NOFOLLOW: a link fails to open (ELOOP), so a link planted under a journal's name, even
        // this device's own, is never followed. O_NONBLOCK: a named pipe opens at once instead of
        // waiting for a writer, and fstat below turns it away.
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let error = errno
            if error == ELOOP, let kind = SyncFileKind.of(path) { throw .notARegularFile(path: path, kind: kind) }
            throw .unreadable(path: path, reason: String(cString: strerror(error)))
        }
        defer { close(descriptor) }
        // The file opened, not the name: it may have been swapped since the folder was listed.
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        if let kind = SyncFileKind(mode: info.st_mode) { throw .notARegularFile(path: path, kind: kind) }
        let expected = min(Int(info.st_size), byteLimit)
        if buffer.count <= expected { buffer = [UInt8](repeating: 0, count: min(expected + 65536, byteLimit)) }
        var count = 0
        while count < byteLimit {
            // A journal being appended to is read to where it ends now (its last line may be cut short).
            if count == buffer.count { buffer += [UInt8](repeating: 0, count: min(buffer.count + 65536, byteLimit - buffer.count)) }
            let got = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
            if got == 0 { return (count, false) }
            count += got
        }
        // At the limit: one byte more says whether the file goes on.
        var next: UInt8 = 0
        while true {
            let got = Foundation.read(descriptor, &next, 1)
            if got < 0 && errno == EINTR { continue }
            return (count, got > 0)
        }
    }
}
