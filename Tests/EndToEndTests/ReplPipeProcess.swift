import Foundation
import Synchronization
import TestSupport

/// The REPL (`abplayer` with commands on a pipe) kept running, so a test can type a command,
/// let real time pass, and type the next. Standard output and error are collected line by line.
/// Its waits block the calling thread: the tests using it are synchronous.
final class ReplPipeProcess: Sendable {
    let process: Process
    private let input: FileHandle
    private let output = Mutex((stdout: [String](), stderr: [String]()))

    /// `environment`: more variables (an audio server's, a session bus's) over the player's.
    init(_ abplayer: AbplayerProcess, arguments: [String], environment: [String: String] = [:]) throws {
        process = Process()
        process.executableURL = BuildProducts.abplayer
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(abplayer.environment) { _, new in new }
            .merging(environment) { _, new in new }
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        input = stdin.fileHandleForWriting
        try process.run()
        for (pipe, isError) in [(stdout, false), (stderr, true)] {
            let handle = pipe.fileHandleForReading
            Thread.detachNewThread { [self] in
                var pending = ""
                while true {
                    let data = handle.availableData
                    if data.isEmpty { break }
                    pending += String(decoding: data, as: UTF8.self)
                    var lines = pending.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                    pending = lines.removeLast()
                    output.withLock { if isError { $0.stderr += lines } else { $0.stdout += lines } }
                }
            }
        }
    }

    var stdoutLines: [String] { output.withLock { $0.stdout } }
    var stderrLines: [String] { output.withLock { $0.stderr } }

    /// The REPL may have exited already (one that failed): its closed pipe must not end the test runner.
    /// False when the write failed (the REPL ended).
    @discardableResult
    func send(_ line: String) -> Bool {
        input.writeIgnoringClosedPipe(Data((line + "\n").utf8))
    }

    /// Blocks until a line of standard output after the first `after` ones contains `text`;
    /// the line, or nil at the timeout or when the process ended without printing it.
    func waitForLine(containing text: String, after: Int = 0, timeout: TimeInterval = 30) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let line = stdoutLines.dropFirst(after).first(where: { $0.contains(text) }) { return line }
            if process.hasEnded { return stdoutLines.dropFirst(after).first { $0.contains(text) } }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return nil
    }

    /// The same for standard error.
    func waitForErrorLine(containing text: String, timeout: TimeInterval = 30) -> String? {
        var found: String?
        _ = waitUntil(within: timeout, every: 0.01) {
            found = stderrLines.first { $0.contains(text) }
            return found != nil || process.hasEnded
        }
        return found ?? stderrLines.first { $0.contains(text) }
    }

    /// Types `status --json` and returns the JSON line it prints.
    func status() -> PlaybackStatusJSON? {
        let before = stdoutLines.count
        send("status --json")
        guard let line = waitForLine(containing: "{\"book\"", after: before, timeout: 10) else { return nil }
        return try? JSONDecoder().decode(PlaybackStatusJSON.self, from: Data(line.utf8))
    }

    /// Ends its standard input (the end of a piped script).
    func closeInput() {
        try? input.close()
    }

    /// Types `quit` and waits for the process to end; its exit status (nil: killed at the timeout).
    @discardableResult
    func quit(timeout: TimeInterval = 20) -> Int32? {
        send("quit")
        try? input.close()
        return process.exitStatus(killingAfter: timeout)
    }
}

/// What `status --json` prints (the fields the playback tests check).
struct PlaybackStatusJSON: Decodable {
    let book: String
    let itemNumber: Int
    let itemCount: Int
    let itemPosition: Double
    let bookPosition: Double?
    let bookDuration: Double?
    let chapterNumber: Int?
    let state: String
    let sleep: String?
    let repeatMode: String
    let shuffle: Bool
    let queue: Int
}
