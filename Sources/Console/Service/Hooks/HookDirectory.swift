import Foundation
import PathNames
import Player

/// The hooks a directory holds: an executable named after each event it runs on (`started`,
/// `paused`, ... `output-lost`, `synced`; `ListeningEvent.Kind`'s names). Read once, when the
/// player starts. A hook runs as the player does, as us: one that someone else could have
/// written is refused by the plugins' rule (`FileOwnership`), and so is one that is not a
/// regular file or not executable, each with one line naming it and why. Other files are
/// not ours to judge (a README, a script a hook calls).
struct HookDirectory {
    /// The hook of each event that has one.
    private(set) var hooks: [ListeningEvent.Kind: String] = [:]
    /// One line each ("abplayer: hook FILE refused: ..."), for what was refused.
    private(set) var refusals: [String] = []

    init(_ directory: String) {
        var isDirectory: ObjCBool = false
        // No directory, no hooks: nothing to say.
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else { return }
        guard isDirectory.boolValue else {
            refusals.append("abplayer: hooks: \(directory) is not a directory; no hooks run")
            return
        }
        if let reason = FileOwnership.unsafeDirectoryReason(directory, use: "running its hooks") {
            refusals.append("abplayer: hooks in \(directory) refused: \(reason)")
            return
        }
        for kind in ListeningEvent.Kind.allCases {
            let path = directory + "/" + kind.rawValue
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            if let reason = Self.refusal(path) {
                refusals.append("abplayer: hook \(path) refused: \(reason)")
            } else {
                hooks[kind] = path
            }
        }
    }

    /// Why the file at `path` is not run; nil when it may be. A link is judged by what it leads to.
    /// Asked again before every run: a hook made writable by others since the start runs no more.
    static func refusal(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return "cannot stat: \(String(cString: strerror(errno)))" }
        guard info.st_mode & S_IFMT == S_IFREG else { return "not a regular file" }
        if let reason = FileOwnership.unsafeReason(path, use: "running it") { return reason }
        guard access(path, X_OK) == 0 else {
            return "not executable (mode \(String(info.st_mode & 0o7777, radix: 8))): chmod u+x"
        }
        return nil
    }
}
