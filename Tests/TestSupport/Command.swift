public import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs an external program (an encoder, ffprobe) to completion and collects what it printed.
public enum Command {
    /// Runs `executable` (a name looked up on PATH, or a path) with `arguments`.
    ///
    /// - stdin: fed to the child from a temporary file rather than a pipe, so a child that exits
    ///   without reading cannot raise SIGPIPE in the test process. Without it the child reads
    ///   /dev/null, never the test runner's terminal.
    /// - environment: merged over the inherited environment (so PATH and HOME survive).
    /// - timeout: the process is killed with SIGKILL after this many seconds and
    ///   `CommandError.timedOut` is thrown.
    ///
    /// A non-zero exit status is not an error here; call `requireSuccess()` on the result.
    public static func run(
        _ executable: String,
        _ arguments: [String],
        stdin: Data? = nil,
        environment: [String: String]? = nil,
        timeout: TimeInterval = 120
    ) throws -> CommandResult {
        let inherited = ProcessInfo.processInfo.environment
        let merged = environment.map { inherited.merging($0) { _, override in override } } ?? inherited
        let commandLine = ([executable] + arguments).map(quoted).joined(separator: " ")
        let process = Process()
        process.executableURL = try locate(executable, searchPath: merged["PATH"] ?? "/usr/bin:/bin")
        process.arguments = arguments
        process.environment = merged

        let stdinFile = try stdin.map(writeStdinFile)
        defer { stdinFile.map { try? FileManager.default.removeItem(at: $0) } }
        process.standardInput = try stdinFile.map { try FileHandle(forReadingFrom: $0) } ?? FileHandle.nullDevice

        // Both streams are drained on their own threads while the child runs: a child that fills
        // one pipe's buffer (64 KiB on Linux) while we wait on the other would block forever.
        let outPipe = Pipe(), errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        // Dedicated threads, not Dispatch's pool: a reader blocks until the child exits, and tests
        // running many commands at once must not wait for the pool to grow.
        let output = Output()
        let readers = DispatchGroup()
        for (index, handle) in [outPipe.fileHandleForReading, errPipe.fileHandleForReading].enumerated() {
            readers.enter()
            Thread.detachNewThread {
                let data = (try? handle.readToEnd()) ?? Data()
                output.streams.withLock { $0[index] = data }
                readers.leave()
            }
        }

        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        do {
            try process.run()
        } catch {
            // The readers hold the read ends; closing the write ends lets them finish.
            try? outPipe.fileHandleForWriting.close()
            try? errPipe.fileHandleForWriting.close()
            throw CommandError.launchFailed(commandLine: commandLine, reason: "\(error)")
        }

        let deadline = DispatchTime.now() + timeout
        if exited.wait(timeout: deadline) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
            // A grandchild may still hold the pipes open; don't wait for it indefinitely.
            _ = readers.wait(timeout: .now() + 5)
            throw CommandError.timedOut(commandLine: commandLine, seconds: timeout)
        }
        _ = readers.wait(timeout: .now() + 30)

        let status = process.terminationReason == .uncaughtSignal
            ? 128 + process.terminationStatus
            : process.terminationStatus
        return CommandResult(
            status: status,
            stdout: output.streams.withLock { $0[0] },
            stderr: String(decoding: output.streams.withLock { $0[1] }, as: UTF8.self),
            commandLine: commandLine
        )
    }

    /// Finds `name` on `searchPath` the way a shell would; a name containing "/" is used as is.
    static func locate(_ name: String, searchPath: String) throws -> URL {
        if name.contains("/") { return URL(fileURLWithPath: name) }
        for directory in searchPath.split(separator: ":") where !directory.isEmpty {
            let candidate = URL(fileURLWithPath: String(directory)).appending(path: name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw CommandError.notFound(executable: name, searchPath: searchPath)
    }

    private static func writeStdinFile(_ data: Data) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appending(path: "abplayer-stdin-\(UUID().uuidString)")
        try data.write(to: url)
        return url
    }

    private static func quoted(_ word: String) -> String {
        let plain = word.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:,+%@".contains($0) }
        return plain && !word.isEmpty ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// What the reader threads collected (standard output, then standard error); shared between them
/// and the caller.
private final class Output: Sendable {
    let streams = Mutex([Data(), Data()])
}
