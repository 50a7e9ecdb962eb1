import Foundation

/// What a path in an imported tree is, from `lstat` and, for a symbolic link, `stat`. The importer
/// opens only regular files: `open()` on a FIFO blocks until a writer comes (it hung `import`),
/// and a device or socket is never a book.
enum FileKind: Equatable {
    case regular
    case directory
    /// A FIFO, socket or device.
    case special
    /// A symbolic link whose target does not exist.
    case danglingLink(target: String)
    case missing
    case unreadable(reason: String)

    /// The kind of `path` (a link's target's kind), and whether `path` itself is a symbolic link.
    static func of(path: String) -> (kind: FileKind, isLink: Bool) {
        var link = stat()
        guard lstat(path, &link) == 0 else {
            return errno == ENOENT || errno == ENOTDIR ? (.missing, false) : (.unreadable(reason: String(cString: strerror(errno))), false)
        }
        let isLink = link.st_mode & S_IFMT == S_IFLNK
        var target = link
        if isLink, stat(path, &target) != 0 {
            if errno == ENOENT || errno == ENOTDIR {
                let destination = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
                return (.danglingLink(target: destination), true)
            }
            // ELOOP: a chain of links that never ends.
            return (.unreadable(reason: String(cString: strerror(errno))), true)
        }
        switch target.st_mode & S_IFMT {
        case S_IFREG: return (.regular, isLink)
        case S_IFDIR: return (.directory, isLink)
        default: return (.special, isLink)
        }
    }

    /// The path with every link and `..` resolved, or nil when it cannot be resolved.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
