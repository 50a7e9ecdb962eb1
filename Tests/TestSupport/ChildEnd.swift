public import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child's end as the kernel sees it, not only as Foundation does.
///
/// Foundation (swift-corelibs) learns that a child ended when a socket the child holds closes. It
/// makes that socket pair without close-on-exec and, in each new child, closes only the
/// descriptors that were open when it looked: a daemon that another test starts at the same
/// moment (Syncthing, an audio server) can inherit the socket and keep it open for its whole
/// life. `isRunning` then stays true, and `waitUntilExit()` never returns, for a child that ended
/// long ago (a `mount` a full-disk test ran hung a whole CI run that way). So a child is also
/// taken as ended when /proc shows it a zombie (ended, not yet reaped: only Foundation reaps, so
/// the pid is still this child's), and its status is read there.
extension Process {
    /// Whether the child has ended (Foundation saw it, or the kernel holds it as a zombie, or
    /// Foundation has just reaped it and not yet said so).
    public var hasEnded: Bool {
        !isRunning || Self.kernelState(of: processIdentifier) != .running
    }

    /// The exit status once ended, as a shell gives it: the code, or 128 + the signal that killed
    /// it. Asked once `hasEnded`: when Foundation has just reaped the child and not yet said so,
    /// it waits for it (5 s at most; nil then).
    public var endStatus: Int32? {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(5)
        while true {
            if !isRunning {
                return terminationReason == .uncaughtSignal ? 128 + terminationStatus : terminationStatus
            }
            if case let .zombie(status) = Self.kernelState(of: processIdentifier) { return status }
            guard clock.now < deadline else { return nil }
            Thread.sleep(forTimeInterval: 0.001)
        }
    }

    /// Blocks this thread until the child has ended, at most `timeout` seconds; whether it ended.
    @discardableResult
    public func waitForEnd(timeout: Double) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(timeout)
        while !hasEnded {
            guard clock.now < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return true
    }

    /// Waits as a task (not holding a thread of the cooperative pool) until the child has ended,
    /// at most `timeout` seconds; whether it ended.
    @discardableResult
    public func waitForEnd(timeout: Double) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(timeout)
        while !hasEnded {
            guard clock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return true
    }

    /// Kills the child if it has not ended, and waits (at most `timeout` seconds) for the kernel
    /// to end it. SIGKILL: children of the test runner inherit its blocked SIGTERM.
    public func kill(waiting timeout: Double = 10) {
        if !hasEnded { Glibc.kill(processIdentifier, SIGKILL) }
        waitForEnd(timeout: timeout)
    }

    enum KernelState: Equatable {
        case running
        /// Ended, not yet reaped, with its status as a shell gives it.
        case zombie(Int32)
        /// Gone: Foundation has reaped it (and the pid, one of 32,768 here, may soon be another's).
        case reaped
    }

    /// What /proc/PID/stat says: the state (the field after the command's closing parenthesis)
    /// and, for a zombie, its exit_code (the 52nd field, a wait status).
    static func kernelState(of pid: Int32) -> KernelState {
        guard pid > 0 else { return .running }
        // Read while the child is being reaped, the file can be gone or come back empty: then
        // whether the pid is still there says which.
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else {
            return Glibc.kill(pid, 0) == 0 ? .running : .reaped
        }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // fields[0] is the state (field 3), so field N is fields[N - 3]. A killed child's main
        // thread can be a zombie while its other threads are still ending, and they hold its
        // descriptors (a daemon's socket still took connections, seen beside stress-ng): ended
        // only once it is the last of its threads.
        guard fields.first == "Z", threadCount(of: pid) <= 1 else { return .running }
        guard fields.count > 49, let wait = Int32(fields[49].trimmingCharacters(in: .whitespacesAndNewlines)) else {
            return .zombie(-1)
        }
        let signal = wait & 0x7f
        return .zombie(signal == 0 ? (wait >> 8) & 0xff : 128 + signal)
    }

    /// The threads of `pid` the kernel still lists (0 once it is reaped).
    private static func threadCount(of pid: Int32) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").count) ?? 0
    }
}
