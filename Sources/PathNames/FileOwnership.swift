import Foundation

/// The rule for running code found in a file (a plugin `dlopen`ed, a hook executed): the file
/// and its directory must belong to root or to us, and be writable by nobody else (not its group
/// either: a shared group is other users). Anything else would run someone else's code as us.
public enum FileOwnership {
    /// Why `path` must not be run, one clause naming the file (`the file`) or its directory and
    /// what to do; nil when it is safe. `use` says what would run it: "loading it", "running it".
    public static func unsafeReason(_ path: String, use: String) -> String? {
        unsafeReason(path, what: "the file", use: use)
    }

    /// The same for a directory of such files alone (a plugin directory).
    public static func unsafeDirectoryReason(_ path: String, use: String) -> String? {
        unsafeReason(path, what: "its directory", use: use)
    }

    private static func unsafeReason(_ path: String, what: String, use: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return "cannot stat: \(String(cString: strerror(errno)))" }
        let mode = String(info.st_mode & 0o7777, radix: 8)
        if info.st_mode & S_IWOTH != 0 {
            return "\(what) is writable by other users (mode \(mode)); \(use) would run their code: chmod o-w"
        }
        if info.st_mode & S_IWGRP != 0 {
            return "\(what) is writable by its group (mode \(mode)); \(use) would run the group's code: chmod g-w"
        }
        if info.st_uid != 0 && info.st_uid != getuid() {
            return "\(what) belongs to another user (uid \(info.st_uid)); \(use) would run their code"
        }
        if what == "the file" {
            let directory = (path as NSString).deletingLastPathComponent
            return unsafeReason(directory.isEmpty ? "." : directory, what: "its directory", use: use)
        }
        return nil
    }
}
