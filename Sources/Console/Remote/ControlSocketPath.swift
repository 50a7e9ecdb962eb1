public import Foundation
import PathNames

/// Where a player's control socket is: `$XDG_RUNTIME_DIR/abplayer/control` for the default
/// library, `control-<hash>` beside it for any other one (a hash of the library's real path), so
/// players on two libraries run at once and a client finds the one it wants from `--library`.
/// Without `XDG_RUNTIME_DIR`: `/tmp/abplayer-<uid>/` instead, a folder only we may own.
public struct ControlSocketPath: Sendable, CustomStringConvertible {
    public let directory: String
    public let path: String
    /// True when `XDG_RUNTIME_DIR` was unset and the /tmp folder is used.
    public let isFallback: Bool

    public static let helpText = "The control socket is $XDG_RUNTIME_DIR/abplayer/control for the default library and control-HASH (of the library's real path) for others; without XDG_RUNTIME_DIR (or with a relative one) it is in /tmp/abplayer-UID/."

    public init(library: String, environment: [String: String] = ProcessInfo.processInfo.environment,
                defaultLibrary: String?) {
        // A relative XDG_RUNTIME_DIR is ignored, as the XDG spec says (`XDGDirectory`).
        if let runtime = XDGDirectory.absolute(environment["XDG_RUNTIME_DIR"]) {
            directory = runtime + "/abplayer"
            isFallback = false
        } else {
            directory = "/tmp/abplayer-\(getuid())"
            isFallback = true
        }
        let real = Self.realPath(library)
        let name = real == defaultLibrary.map(Self.realPath) ? "control" : "control-" + Self.hash(real)
        path = directory + "/" + name
    }

    public var description: String { path }

    /// The canonical path of a file that may not exist yet: its folder resolved, its name kept.
    static func realPath(_ path: String) -> String {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        let folder = url.deletingLastPathComponent().path
        guard let resolved = realpath(folder, nil) else { return url.path }
        defer { free(resolved) }
        return String(cString: resolved) + "/" + url.lastPathComponent
    }

    /// FNV-1a, 64 bits, in hex. Written here because it must be the same in every process and
    /// every run (Swift's `Hasher` is seeded per process) and a crypto library would be too much
    /// for naming a file.
    static func hash(_ text: String) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value &*= 0x0000_0100_0000_01b3
        }
        return String(value, radix: 16).leftPadded(to: 16)
    }

    /// Creates the folder (0700) or checks that an existing one is ours and closed to others.
    func makeDirectory() throws(ControlSocketError) {
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw ControlSocketError("cannot create \(directory): \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard lstat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw ControlSocketError("\(directory) is not a folder")
        }
        guard info.st_uid == getuid() else {
            throw ControlSocketError("\(directory) belongs to another user; set XDG_RUNTIME_DIR")
        }
        if info.st_mode & 0o077 != 0, chmod(directory, 0o700) != 0 {
            throw ControlSocketError("cannot make \(directory) private: \(String(cString: strerror(errno)))")
        }
    }
}

/// Why the control socket (or a connection to it) does not work, said in one line.
public struct ControlSocketError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
