import ArgumentParser
import Console
import Foundation
import Library

/// One player per library, reachable from outside: the lock beside the library and the control
/// socket whose path is derived from it.
extension LibraryOptions {
    /// The library file this command works on: --library, else the default. Every command goes
    /// through `open()` or `connectToPlayer()` first, which refuse in one line when there is no
    /// default (`requirePath()`), so the last fallback (/dev/null, not a regular file: refused)
    /// is never reached, and never makes a library in whatever the current folder is.
    var resolvedPath: String { path ?? LibraryDatabase.defaultPath() ?? "/dev/null" }

    /// The library file, or, without --library and with no default (XDG_DATA_HOME and HOME are
    /// not absolute paths), one line saying so and a failure. (Not checked in `validate()`: that
    /// runs for `--help` too.)
    func requirePath() throws -> String {
        guard let path = path ?? LibraryDatabase.defaultPath() else {
            printError("abplayer: \(LibraryDatabase.noDefaultPathReason())")
            throw ExitCode.failure
        }
        if let given = self.path, let reason = Self.missingFolder(given) {
            printError("abplayer: --library \(TerminalText.visible(given)): \(reason)")
            throw ExitCode.failure
        }
        return path
    }

    /// Why a library named with --library cannot be made where it is named: its folder is not
    /// there. A typo in a path must not make a new, empty library (and folders nobody asked
    /// for); only the default location's folders are abplayer's to make.
    static func missingFolder(_ given: String) -> String? {
        let standardized = { (path: String) in URL(fileURLWithPath: path).standardizedFileURL.path }
        if let defaultPath = LibraryDatabase.defaultPath(), standardized(given) == standardized(defaultPath) { return nil }
        let folder = (standardized(given) as NSString).deletingLastPathComponent
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) else { return "no such folder; create it first" }
        return isFolder.boolValue ? nil : "\(TerminalText.visible(folder)) is not a folder"
    }

    var controlSocket: ControlSocketPath {
        ControlSocketPath(library: resolvedPath, defaultLibrary: LibraryDatabase.defaultPath())
    }

    /// This process's claim on the library; nil when a player already runs on it.
    func lockForPlaying() throws -> PlayerLock? {
        do {
            return try PlayerLock.acquire(library: resolvedPath)
        } catch {
            printError("abplayer: \(error)")
            throw ExitCode.failure
        }
    }

    /// Opens the library for a command that changes it. While a player holds the library, a
    /// change from another process would pull the ground from under it (a deleted book playing
    /// on, items renumbered under the saved place): it must go through that player, which stops
    /// what it plays first. So it is refused, saying how. (Checked, not held: a player started
    /// during the change itself is not kept out, nor is a prompt that opens meanwhile told the
    /// library is busy.)
    /// `remote`: the REPL line that makes the same change in the running player, named in the
    /// refusal when there is one.
    func openForEditing(remote: String? = nil) throws -> LibraryDatabase {
        // Opened first: that makes the library's folder, where the lock lives, for a new library.
        let database = try open()
        guard let lock = try lockForPlaying() else {
            let how = remote.map { "'abplayer remote \($0)'" }
                ?? "'abplayer' opens a prompt of it; 'abplayer remote help' lists the lines it takes"
            printError("abplayer: a player is running on \(resolvedPath): make this change through it (\(how)) or stop it first")
            throw ExitCode.failure
        }
        lock.release()
        return database
    }

    /// A connection to the player running on this library, or one line saying why there is none
    /// and a failure exit.
    func connectToPlayer() throws -> ControlClient {
        let library = try requirePath(), socket = controlSocket
        do {
            if let client = try ControlClient(path: socket.path) { return client }
            printError("abplayer: no player is running on \(library) (nothing answers at \(socket.path)); start one with 'abplayer' or 'abplayer --daemon'")
        } catch {
            printError("abplayer: \(error)")
        }
        throw ExitCode.failure
    }

    /// This process as the library's player (its lock), or as a client of the player that holds
    /// the lock. A player takes the lock some milliseconds before its socket listens (it opens
    /// the library, the plugins, the watch in between): two REPLs started together find the lock
    /// held and nothing answering yet. So both are tried again until one works or
    /// `playerStartDeadline` passes; the lock too, since its holder may have been a command that
    /// only checked it, or a player that just quit. Then one line says who holds it.
    func playOrJoin() throws -> PlayerRole {
        let library = resolvedPath, socket = controlSocket
        let deadline = ContinuousClock.now + Self.playerStartDeadline
        // No event says when another process's socket starts listening: short pauses, growing.
        var pause = Duration.milliseconds(2)
        do {
            while true {
                if let lock = try lockForPlaying() { return .player(lock) }
                if let client = try ControlClient(path: socket.path) { return .client(client) }
                if ContinuousClock.now >= deadline { break }
                Thread.sleep(forTimeInterval: pause / .seconds(1))
                pause = min(pause * 2, .milliseconds(50))
            }
        } catch {
            printError("abplayer: \(error)")
            throw ExitCode.failure
        }
        let (holder, advice) = Self.lockHolder(library: library)
        printError("abplayer: \(holder) holds \(library).lock but nothing answered at \(socket.path) within "
            + "\(Self.playerStartDeadline.components.seconds) s: \(advice)")
        throw ExitCode.failure
    }

    /// How long a player may take from its lock to its socket listening.
    static let playerStartDeadline = Duration.seconds(3)

    /// The process that holds `library`'s lock, as the lock file names it ("process 1234
    /// (abplayer listen Dune)"), and what to do about it: only an `abplayer listen` is known to
    /// have no socket.
    private static func lockHolder(library: String) -> (holder: String, advice: String) {
        guard let pid = PlayerLock.holder(library: library) else {
            return ("another process", "if it is a player, it is stuck or was started with another XDG_RUNTIME_DIR; stop it, or try again")
        }
        let arguments = arguments(of: pid)
        // Shown as visible text: a command line is anyone's bytes (a book's title among them).
        let holder = "process \(pid)" + (arguments.map { " (\(TerminalText.visible($0.joined(separator: " "))))" } ?? "")
        // The subcommand comes first: `abplayer listen BOOK`.
        if arguments?.dropFirst().first == "listen" {
            return (holder, "'abplayer listen' takes commands only where it runs (its standard input); type them there, or stop it first (Ctrl-C or 'quit' where it runs)")
        }
        return (holder, "if it is a player, it is stuck or was started with another XDG_RUNTIME_DIR; stop it, or try again")
    }

    /// `/proc/PID/cmdline`, the program by its file name; nil when the process is gone.
    private static func arguments(of pid: Int32) -> [String]? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !data.isEmpty else { return nil }
        var arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        if let program = arguments.first { arguments[0] = (program as NSString).lastPathComponent }
        return arguments
    }
}

/// What a REPL is on a library: its player, or a client of the player already running there.
enum PlayerRole {
    case player(PlayerLock)
    case client(ControlClient)
}
