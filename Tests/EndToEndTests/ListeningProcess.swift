import Foundation
import Synchronization
import TestSupport

/// `abplayer listen` running in the background, its standard error read as it comes, so a test
/// can wait for "playing ..." and then signal or kill it.
final class ListeningProcess: Sendable {
    let process: Process
    /// Standard error so far, and each complete line with when it arrived.
    private let stderr = Mutex((text: "", lines: [(line: String, arrived: ContinuousClock.Instant)]()))
    /// When the exit was seen (on Foundation's thread, so a starved test task cannot make it late).
    let exited = ExitTime()

    /// `environment` goes over the test's and `abplayer`'s (an audio server's address).
    init(_ abplayer: AbplayerProcess, arguments: [String], environment: [String: String] = [:]) throws {
        process = Process()
        process.executableURL = BuildProducts.abplayer
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(abplayer.environment) { _, new in new }
            .merging(environment) { _, new in new }
        process.terminationHandler = { [exited] _ in exited.record() }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardError = pipe
        try process.run()
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                let arrived = ContinuousClock.now
                stderr.withLock { output in
                    let complete = output.text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
                    output.text += String(decoding: data, as: UTF8.self)
                    let lines = output.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                    for line in lines.dropFirst(complete) { output.lines.append((String(line), arrived)) }
                }
            }
        }
    }

    var errorOutput: String { stderr.withLock { $0.text } }

    /// Waits for a line of standard error containing `text`; returns it with the instant the
    /// reader thread received it, or nil at the deadline or when the process ended without
    /// printing it. Polls with `Task.sleep` rather than blocking: tests run on the cooperative
    /// pool, one thread per core, and a blocked thread would stall other tests' timers.
    func waitForLine(containing text: String, timeout: Duration = .seconds(30)) async -> (line: String, arrived: ContinuousClock.Instant)? {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while clock.now < deadline {
            let found = stderr.withLock { $0.lines.first { $0.line.contains(text) } }
            if let found { return found }
            if process.hasEnded { return stderr.withLock { $0.lines.first { $0.line.contains(text) } } }
            try? await Task.sleep(for: .milliseconds(5))
        }
        // A last look: a task woken late (other suites can starve the pool) must not miss it.
        return stderr.withLock { $0.lines.first { $0.line.contains(text) } }
    }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Whether the process has a handler installed for `signal` (the SigCgt mask of /proc/PID/status).
    func catches(_ signal: Int32) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
              let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16) else { return false }
        return mask & (1 << UInt64(signal - 1)) != 0
    }

    /// Waits for the process to end; its exit status (128 + signal when killed), or nil on timeout
    /// (then it is killed).
    func waitForExit(timeout: Duration = .seconds(30)) async -> Int32? {
        guard await process.waitForEnd(timeout: timeout / .seconds(1)) else {
            kill(process.processIdentifier, SIGKILL)
            return nil
        }
        return process.endStatus
    }
}

/// When a child's exit was seen, set from Foundation's termination handler.
final class ExitTime: Sendable {
    private let instant = Mutex<ContinuousClock.Instant?>(nil)

    func record() { instant.withLock { $0 = .now } }

    /// When it exited; nil while it runs.
    var value: ContinuousClock.Instant? { instant.withLock { $0 } }
}
