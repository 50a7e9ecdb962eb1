import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A Linux inotify instance and a pipe that wakes its reader: `next(timeout:)` blocks in `poll`
/// on both, so `wake()` from another thread ends a wait at once (closing the inotify descriptor
/// under a blocked `read` is not guaranteed to wake it). Used by one reading thread; `wake()` is
/// the only call made from elsewhere.
final class Inotify {
    /// One event, with the watched folder's path joined to the entry's name.
    struct Event {
        let path: String
        let mask: UInt32
        var isDirectory: Bool { mask & UInt32(IN_ISDIR) != 0 }
        func has(_ flag: Int32) -> Bool { mask & UInt32(bitPattern: flag) != 0 }
    }

    /// What a wait returned.
    enum Wait {
        case events([Event])
        /// The kernel's queue overflowed: events were lost.
        case overflow([Event])
        case timedOut
        case woken
    }

    static let folderEvents = UInt32(IN_CREATE | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE
        | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

    private let descriptor: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    /// Watch descriptor -> watched folder.
    private var folders: [Int32: String] = [:]
    private var watched: [String: Int32] = [:]

    init() throws {
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else {
            throw LibraryError.invalid("cannot watch folders: inotify_init1 failed (\(String(cString: strerror(errno))))")
        }
        var ends: [Int32] = [0, 0]
        // pipe2 is hidden behind _GNU_SOURCE in Glibc's module: pipe, then the flags.
        guard pipe(&ends) == 0 else {
            close(descriptor)
            throw LibraryError.invalid("cannot watch folders: pipe failed (\(String(cString: strerror(errno))))")
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        wakeRead = ends[0]
        wakeWrite = ends[1]
    }

    deinit {
        close(descriptor)
        close(wakeRead)
        close(wakeWrite)
    }

    /// Watches `folder` (not its sub-folders). False when it cannot (gone, or the user's
    /// `max_user_watches` is reached).
    @discardableResult
    func watch(_ folder: String) -> Bool {
        if watched[folder] != nil { return true }
        let wd = inotify_add_watch(descriptor, folder, Self.folderEvents)
        guard wd >= 0 else { return false }
        // The kernel gives one descriptor per inode: a folder moved and seen again replaces its path.
        if let old = folders[wd] { watched[old] = nil }
        folders[wd] = folder
        watched[folder] = wd
        return true
    }

    /// Stops watching a folder (and those below it) that moved away: its watches would go on
    /// reporting events under the old path. The new path is watched again when it is seen.
    func forget(below folder: String) {
        for (path, wd) in watched where path == folder || path.hasPrefix(folder + "/") {
            inotify_rm_watch(descriptor, wd)
            watched[path] = nil
            folders[wd] = nil
        }
    }

    /// Safe from any thread: one byte in the pipe.
    func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// Waits up to `timeout` (nil: forever) for events.
    func next(timeout: Duration?) -> Wait {
        var fds = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        let milliseconds = timeout.map { Int32(max(0, min(Int64(Int32.max), $0.components.seconds * 1000
            + $0.components.attoseconds / 1_000_000_000_000_000))) } ?? -1
        let ready = poll(&fds, 2, milliseconds)
        if ready < 0 { return errno == EINTR ? .events([]) : .woken }
        if fds[1].revents != 0 { return .woken }
        if ready == 0 { return .timedOut }
        return readEvents()
    }

    private func readEvents() -> Wait {
        var events: [Event] = []
        var overflowed = false
        // Big enough for many events; one read returns whole events only.
        let capacity = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer, capacity)
            guard count > 0 else { break }
            var offset = 0
            while offset < count {
                let raw = buffer + offset
                let wd = raw.loadUnaligned(as: Int32.self)
                let mask = raw.loadUnaligned(fromByteOffset: 4, as: UInt32.self)
                let length = Int(raw.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
                let headerSize = MemoryLayout<inotify_event>.size
                offset += headerSize + length
                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    overflowed = true
                    continue
                }
                guard let folder = folders[wd] else { continue }
                var path = folder
                if length > 0 {
                    let name = String(cString: (raw + headerSize).assumingMemoryBound(to: CChar.self))
                    if !name.isEmpty { path = folder + "/" + name }
                }
                if mask & UInt32(IN_IGNORED) != 0 {
                    watched[folder] = nil
                    folders[wd] = nil
                    continue
                }
                events.append(Event(path: path, mask: mask))
            }
        }
        return overflowed ? .overflow(events) : .events(events)
    }
}
