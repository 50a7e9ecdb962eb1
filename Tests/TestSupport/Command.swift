public import Foundation
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

        let outPipe = Pipe(), errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        do {
            try process.run()
        } catch {
            throw CommandError.launchFailed(commandLine: commandLine, reason: "\(error)")
        }
        let streams = OutputStreams(outPipe.fileHandleForReading.fileDescriptor, errPipe.fileHandleForReading.fileDescriptor)

        // Both streams are read as they come, on this thread, until the child has ended (as the
        // kernel sees it: `hasEnded`) and what it wrote is read. Not until both reach their end
        // of file: a daemon another test starts at the same moment can inherit a write end (see
        // ChildEnd.swift) and hold it open for its whole life.
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(timeout)
        while !process.hasEnded {
            guard clock.now < deadline else {
                process.kill()
                throw CommandError.timedOut(commandLine: commandLine, seconds: timeout)
            }
            streams.read(waitingUpTo: 20)
        }
        streams.read(waitingUpTo: 0) // what it wrote before it ended

        return CommandResult(
            status: process.endStatus ?? -1,
            stdout: streams.data[0],
            stderr: String(decoding: streams.data[1], as: UTF8.self),
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

/// A child's standard output and error, read without blocking as they come. Used by one thread.
private final class OutputStreams {
    private var descriptors: [Int32]
    private(set) var data = [Data(), Data()]

    init(_ output: Int32, _ error: Int32) {
        descriptors = [output, error]
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK) }
    }

    /// Waits up to `milliseconds` for either stream to have something, then reads all that both
    /// have now. A stream at its end is read no more.
    func read(waitingUpTo milliseconds: Int32) {
        var polled = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        if milliseconds > 0 { _ = poll(&polled, nfds_t(polled.count), milliseconds) }
        var chunk = [UInt8](repeating: 0, count: 65536)
        for index in descriptors.indices where descriptors[index] >= 0 {
            while true {
                let count = Glibc.read(descriptors[index], &chunk, chunk.count)
                if count > 0 {
                    data[index].append(contentsOf: chunk[0..<count])
                } else {
                    if count == 0 { descriptors[index] = -1 } // end of file (poll skips a negative fd)
                    break // EAGAIN: nothing more now
                }
            }
        }
    }
}
