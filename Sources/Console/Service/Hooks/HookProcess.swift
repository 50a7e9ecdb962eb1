import Foundation
import PlayerCore

/// One run of a hook: started with `posix_spawn` (no fork of the player, no Foundation `Process`
/// and its run loop), detached from the player's terminal and signals, and watched on a thread
/// of its own until it ends or outlives its time limit.
enum HookProcess {
    /// How a run ended, when it did not end well.
    enum Failure: Error, Equatable {
        case cannotStart(String)
        case exited(Int32)
        case killedBySignal(Int32)
        case timedOut(Duration)

        var text: String {
            switch self {
            case let .cannotStart(reason): "cannot run: \(reason)"
            case let .exited(status): "exited with status \(status)"
            case let .killedBySignal(signal): "ended by signal \(signal)"
            case let .timedOut(limit): "still running after \(String(format: "%g", limit.seconds)) s: killed (ABPLAYER_HOOK_TIMEOUT sets the limit)"
            }
        }
    }

    /// Starts `path` with `environment` ("NAME=value" each) and returns at once; `ended` hears
    /// how it ended (nil: status 0), on the thread watching it (at once when it could not start).
    static func run(_ path: String, environment: [String], limit: Duration, ended: @escaping @Sendable (Failure?) -> Void) {
        switch start(path, environment: environment) {
        case let .failure(failure): ended(failure)
        case let .success(pid): watch(pid, limit: limit, ended: ended)
        }
    }

    /// Standard input, output and error on /dev/null (a hook never reads the listener's keys nor
    /// writes over the prompt), no other descriptor of the player (the library, its lock, the
    /// control socket), signals as a new program has them (the player ignores some), and a process
    /// group of its own: the terminal's Ctrl-C is not for it, and the time limit kills its children too.
    private static func start(_ path: String, environment: [String]) -> Result<pid_t, Failure> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        closeOthers(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t(), none = sigset_t()
        sigfillset(&all)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let arguments = [path]
        var pid = pid_t()
        let result = withCStrings(arguments) { argv in
            withCStrings(environment) { envp in posix_spawn(&pid, path, &actions, &attributes, argv, envp) }
        }
        guard result == 0 else {
            let hint = result == ENOEXEC ? " (a script must start with a #! line naming its interpreter)" : ""
            return .failure(.cannotStart(String(cString: strerror(result)) + hint))
        }
        return .success(pid)
    }

    /// Closes every descriptor above standard error in the child. glibc 2.34 has
    /// `posix_spawn_file_actions_addclosefrom_np`, which Swift's Glibc module does not show:
    /// looked up by name, once.
    private static func closeOthers(_ actions: inout posix_spawn_file_actions_t) {
        guard let closeFrom = addCloseFrom else { return }
        _ = closeFrom(&actions, 3)
    }

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let addCloseFrom: AddCloseFrom? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: AddCloseFrom.self) }

    /// Waits for the hook on a thread of its own (it may take its time: the player never waits
    /// for it), and kills its process group once it outlives `limit`. The exit is waited for
    /// without reaping it (`WNOWAIT`) until the kill can no longer come: the pid, and so the
    /// group, cannot be another process's while the timer might still use it.
    private static func watch(_ pid: pid_t, limit: Duration, ended: @escaping @Sendable (Failure?) -> Void) {
        let state = Locked(WatchState.running)
        DispatchQueue.global().asyncAfter(deadline: .now() + limit.seconds) {
            state.withLock { state in
                guard state == .running else { return }
                // The group, so that what the hook started goes too; the hook alone when it left
                // the group (a `setsid` of its own).
                if kill(-pid, SIGKILL) != 0 { kill(pid, SIGKILL) }
                state = .killed
            }
        }
        Thread.detachNewThread {
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
            let killed = state.withLock { state in
                defer { state = .exited }
                return state == .killed
            }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            if killed {
                ended(.timedOut(limit))
            } else if status & 0x7f != 0 {
                ended(.killedBySignal(status & 0x7f))
            } else {
                let code = (status >> 8) & 0xff
                ended(code == 0 ? nil : .exited(code))
            }
        }
    }

    private enum WatchState: Sendable { case running, killed, exited }
}

/// `body` with `strings` as a NULL-terminated C array (argv, envp), valid only during it.
private func withCStrings<Result>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Result) -> Result {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { pointers.forEach { free($0) } }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
