import Foundation

/// One player per library: an exclusive `flock` on `<library>.lock`, held for the process's
/// life. The kernel drops it when the process dies, so a crash never leaves the library locked.
public final class PlayerLock {
    public let path: String
    private let descriptor: Int32
    private var released = false

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    /// The lock of `library`, or nil when another process holds it.
    public static func acquire(library: String) throws(ControlSocketError) -> PlayerLock? {
        let path = library + ".lock"
        while true {
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                throw ControlSocketError("cannot open the lock \(path): \(String(cString: strerror(errno)))")
            }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                let reason = errno
                close(descriptor)
                if reason == EWOULDBLOCK { return nil }
                throw ControlSocketError("cannot lock \(path): \(String(cString: strerror(reason)))")
            }
            // The holder before us removes the file before letting go: a lock taken on a file
            // that is no longer at `path` is worth nothing, so try again with the new one.
            var held = stat(), current = stat()
            if fstat(descriptor, &held) == 0, stat(path, &current) == 0, held.st_ino == current.st_ino, held.st_dev == current.st_dev {
                let pid = "\(getpid())\n"
                ftruncate(descriptor, 0)
                _ = pid.withCString { write(descriptor, $0, strlen($0)) }
                return PlayerLock(path: path, descriptor: descriptor)
            }
            close(descriptor)
        }
    }

    /// The process id the holder of `library`'s lock wrote into it; nil when there is none (no
    /// holder, or one that has not written it yet).
    public static func holder(library: String) -> Int32? {
        guard let data = FileManager.default.contents(atPath: library + ".lock") else { return nil }
        return Int32(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Removes the file, then lets go (in this order, see `acquire`). Once: a second release
    /// would remove the file of the player that took the lock next.
    public func release() {
        guard !released else { return }
        released = true
        unlink(path)
        close(descriptor)
    }
}
