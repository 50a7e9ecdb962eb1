import Foundation
import Synchronization
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `abplayer play` running in the background, driven through its standard input as a user (or
/// the REPL later) would, with what it prints collected as it comes.
final class PlayerProcess: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let output = CollectedOutput()
    private let readers = DispatchGroup()
    /// When the exit was seen (on Foundation's thread, so a starved test task cannot make it late).
    let exited = ExitTime()

    /// `environment` is merged over the test's; the audio servers' variables of a test are
    /// complete on their own (everything else points nowhere), so the player cannot reach a server
    /// of another test.
    init(_ arguments: [String], environment: [String: String], home: URL) throws {
        var merged = ProcessInfo.processInfo.environment
        for key in ["PULSE_SERVER", "JACK_DEFAULT_SERVER", "ALSA_CONFIG_PATH", "PULSE_CLIENTCONFIG"] { merged[key] = nil }
        merged["PULSE_SERVER"] = "unix:/nonexistent/abplayer-test"
        merged["JACK_DEFAULT_SERVER"] = "abp_none_\(UUID().uuidString.prefix(6))"
        merged["JACK_NO_START_SERVER"] = "1"
        merged["XDG_RUNTIME_DIR"] = home.path
        merged["XDG_CACHE_HOME"] = home.appendingPathComponent("cache").path
        merged["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
        merged["ABPLAYER_PLUGIN_PATH"] = ""
        merged.merge(environment) { _, new in new }
        process.executableURL = BuildProducts.abplayer
        process.arguments = ["play"] + arguments
        process.environment = merged
        process.standardInput = input
        let outPipe = Pipe(), errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        for (handle, isError) in [(outPipe.fileHandleForReading, false), (errPipe.fileHandleForReading, true)] {
            readers.enter()
            Thread.detachNewThread { [output, readers] in
                while true {
                    let data = handle.availableData
                    if data.isEmpty { break }
                    let text = String(decoding: data, as: UTF8.self)
                    output.text.withLock { if isError { $0.stderr += text } else { $0.stdout += text } }
                }
                readers.leave()
            }
        }
        process.terminationHandler = { [exited] _ in exited.record() }
        try process.run()
    }

    deinit {
        if !process.hasEnded { kill(process.processIdentifier, SIGKILL) }
    }

    /// The player's process id (to read its /proc entries).
    var processIdentifier: Int32 { process.processIdentifier }
    var stdout: String { output.text.withLock { $0.stdout } }
    var stderr: String { output.text.withLock { $0.stderr } }

    /// Sends one command line (`pause`, `output jack`, ...).
    ///
    /// The player may have exited already (a starved test can be late): its closed pipe must not
    /// end the test runner.
    func send(_ line: String) {
        input.fileHandleForWriting.writeIgnoringClosedPipe(Data((line + "\n").utf8))
    }

    /// Waits until standard error contains `text`; false after `timeout` seconds.
    func waitForStderr(_ text: String, timeout: Double = 15) async -> Bool {
        await waitUntil(timeout: timeout) { self.stderr.contains(text) }
    }

    func waitForStdout(_ text: String, timeout: Double = 15) async -> Bool {
        await waitUntil(timeout: timeout) { self.stdout.contains(text) }
    }

    /// What `status --json` says, the fields these tests read.
    struct Status: Decodable {
        let state: String
        let itemNumber: Int
        /// The exact place in the item (`itemPosition` in frames).
        let itemFrame: Int64?
        let output: String
    }

    /// `status --json` (the REPL's command, as `play` takes every one) asked now, read back.
    func statusJSON(timeout: Double = 5) async -> Status? {
        func replies() -> [Substring] { stdout.split(separator: "\n").filter { $0.hasPrefix("{") } }
        let before = replies().count
        send("status --json")
        guard await waitUntil(timeout: timeout, { replies().count > before }), let line = replies().last else { return nil }
        return try? JSONDecoder().decode(Status.self, from: Data(line.utf8))
    }

    /// The place `status` reports now: item (0-based) and frame.
    func status(timeout: Double = 5) async -> (item: Int, frame: Int64)? {
        guard let status = await statusJSON(timeout: timeout), let frame = status.itemFrame else { return nil }
        return (status.itemNumber - 1, frame)
    }

    /// Asks `status` until it says paused; the place then, nil after `timeout` seconds.
    func pausedPlace(timeout: Double = 30) async -> (item: Int, frame: Int64)? {
        await place(whenStatusSays: "paused", timeout: timeout)
    }

    /// Asks `status` until it says playing; the place then, nil after `timeout` seconds.
    func playingPlace(timeout: Double = 30) async -> (item: Int, frame: Int64)? {
        await place(whenStatusSays: "playing", timeout: timeout)
    }

    private func place(whenStatusSays state: String, timeout: Double) async -> (item: Int, frame: Int64)? {
        var place: (item: Int, frame: Int64)?
        let reached = await waitUntil(timeout: timeout) {
            guard let status = await self.statusJSON(), status.state == state, let frame = status.itemFrame else { return false }
            place = (status.itemNumber - 1, frame)
            return true
        }
        return reached ? place : nil
    }

    /// Parses "(item I, frame F)" (the places `play`'s notices give), I counted from 1, into a
    /// 0-based item index.
    static func place(in text: String) -> (item: Int, frame: Int64)? {
        guard let range = text.range(of: "(item ") else { return nil }
        let rest = text[range.upperBound...]
        let numbers = rest.split(whereSeparator: { !$0.isNumber }).prefix(2).compactMap { Int64($0) }
        guard numbers.count == 2, numbers[0] >= 1 else { return nil }
        return (Int(numbers[0]) - 1, numbers[1])
    }

    /// Closes standard input and waits for the exit; nil when it had to be killed.
    func waitForExit(timeout: Double = 60) async -> Int32? {
        let finished = await waitUntil(timeout: timeout) { self.process.hasEnded }
        if !finished {
            process.kill()
            return nil
        }
        _ = readers.wait(timeout: .now() + 5)
        return process.endStatus
    }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Polls `condition` every 20 ms, sleeping as a task: these tests wait for seconds of real
    /// audio, and blocking a thread of the cooperative pool that long starves other tests.
    @discardableResult
    private func waitUntil(timeout: Double, _ condition: () async -> Bool) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(timeout)
        while clock.now < deadline {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return await condition()
    }
}

/// What the reader threads have collected so far.
private final class CollectedOutput: Sendable {
    let text = Mutex((stdout: "", stderr: ""))
}
