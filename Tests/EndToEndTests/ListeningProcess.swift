import Foundation
import Synchronization
import TestSupport

/// `abplayer listen` running in the background, its standard error read as it comes, so a test
/// can wait for "playing ..." and then signal or kill it.
final class ListeningProcess: Sendable {
    let process: Process
    private let stderr = Mutex("")
    private let lineArrived = DispatchSemaphore(value: 0)
    private let exited = DispatchSemaphore(value: 0)

    init(_ abplayer: AbplayerProcess, arguments: [String]) throws {
        process = Process()
        process.executableURL = BuildProducts.abplayer
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(abplayer.environment) { _, new in new }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardError = pipe
        process.terminationHandler = { [exited] _ in exited.signal() }
        try process.run()
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                stderr.withLock { $0 += String(decoding: data, as: UTF8.self) }
                lineArrived.signal()
            }
            lineArrived.signal()
        }
    }

    var errorOutput: String { stderr.withLock { $0 } }

    /// Waits for a line of standard error containing `text`; returns it, or nil at the deadline or
    /// when the process has ended without printing it.
    func waitForLine(containing text: String, timeout: Duration = .seconds(30)) -> String? {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while clock.now < deadline {
            if let line = errorOutput.split(separator: "\n").first(where: { $0.contains(text) }) { return String(line) }
            if !process.isRunning, lineArrived.wait(timeout: .now()) == .timedOut { return nil }
            _ = lineArrived.wait(timeout: .now() + 0.05)
        }
        return nil
    }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits for the process to end; its exit status (128 + signal when killed), or nil on timeout.
    func waitForExit(timeout: TimeInterval = 30) -> Int32? {
        guard exited.wait(timeout: .now() + timeout) == .success else {
            kill(process.processIdentifier, SIGKILL)
            return nil
        }
        return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    }
}
