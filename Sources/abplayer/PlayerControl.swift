import ArgumentParser
import Console
import Foundation
import Library

/// One player per library, reachable from outside: the lock beside the library and the control
/// socket whose path is derived from it.
extension LibraryOptions {
    /// The library file this command works on. After parsing `path` always holds it (`validate()`
    /// puts the default there or fails); /dev/null, refused as not a regular file, is never a
    /// library made in whatever the current folder is.
    var resolvedPath: String { path ?? LibraryDatabase.defaultPath() ?? "/dev/null" }

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
    /// and a failure exit. `locked`: the library's lock is known to be held by another process.
    func connectToPlayer(locked: Bool = false) throws -> ControlClient {
        let socket = controlSocket
        do {
            if let client = try ControlClient(path: socket.path) { return client }
            if locked {
                printError("abplayer: another process plays \(resolvedPath) (it holds \(resolvedPath).lock) but nothing answers at \(socket.path): an 'abplayer listen' has no control socket; stop it first")
            } else {
                printError("abplayer: no player is running on \(resolvedPath) (nothing answers at \(socket.path)); start one with 'abplayer' or 'abplayer --daemon'")
            }
        } catch {
            printError("abplayer: \(error)")
        }
        throw ExitCode.failure
    }
}
