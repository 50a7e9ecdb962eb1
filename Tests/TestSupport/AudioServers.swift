public import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where the harness scripts are (Tests/Harness), and a short private directory per server: the
/// PulseAudio socket path must stay under 108 bytes.
enum Harness {
    static let scripts = BuildProducts.packageDirectory.appendingPathComponent("Tests/Harness")

    /// Runs a start script and returns its exports.
    ///
    /// Spawned directly (posix_spawn), not through Foundation's Process, for two reasons found
    /// the hard way: the servers a script leaves running inherit its signal mask, and the test
    /// runner's threads block SIGINT/SIGTERM (a jackd started that way ignores the stop script's
    /// SIGTERM, gets SIGKILLed, and leaves its slot in JACK's registry); and Foundation notices a
    /// child's exit through a descriptor the child inherits, which a server left running keeps
    /// open. Output goes to files, so nothing waits for a pipe's end either.
    static func run(_ script: String, _ arguments: [String], environment: [String: String] = [:]) throws -> [String: String] {
        let outFile = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("abp-harness-\(UUID().uuidString)")
        let errFile = outFile.appendingPathExtension("err")
        defer {
            try? FileManager.default.removeItem(at: outFile)
            try? FileManager.default.removeItem(at: errFile)
        }
        let path = scripts.appendingPathComponent(script).path
        let merged = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let status = try spawnAndWait(path, arguments, environment: merged, stdout: outFile.path, stderr: errFile.path)
        guard status == 0 else {
            throw HarnessError(script: script, message: (try? String(contentsOf: errFile, encoding: .utf8)) ?? "")
        }
        return exports(in: try String(contentsOf: outFile, encoding: .utf8))
    }

    /// Runs `path` with default signal handling and no blocked signals, standard input from
    /// /dev/null and output to files; returns its exit status.
    static func spawnAndWait(_ path: String, _ arguments: [String], environment: [String: String],
                             stdout: String, stderr: String) throws -> Int32 {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGPIPE, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid = pid_t()
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw HarnessError(script: path, message: String(cString: strerror(result)))
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS are macros Swift cannot see.
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// `export NAME=VALUE` lines as a dictionary.
    static func exports(in text: String) -> [String: String] {
        var values: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("export ") {
            let pair = line.dropFirst("export ".count)
            guard let equals = pair.firstIndex(of: "=") else { continue }
            values[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
        }
        return values
    }

    static func shortDirectory(_ prefix: String) throws -> URL {
        let url = URL(fileURLWithPath: "/tmp/\(prefix)-\(UUID().uuidString.prefix(8).lowercased())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

public struct HarnessError: Error, CustomStringConvertible {
    public let script: String
    public let message: String
    public var description: String { "\(script) failed: \(message)" }
}

/// A private PulseAudio server with a null sink, started for one test and stopped (by PID) when
/// released. Its environment also points ALSA and JACK nowhere, so nothing reaches another server.
public final class PulseServer: @unchecked Sendable {
    public let directory: URL
    public let sink: String
    public private(set) var environment: [String: String] = [:]

    public init(sink: String = "testsink") throws {
        directory = try Harness.shortDirectory("abp-pa")
        self.sink = sink
        try start()
    }

    deinit { stop() }

    /// Starts (again, after `stop`) on the same socket.
    public func start() throws {
        environment = try Harness.run("start-pulse.sh", [directory.path, sink])
    }

    /// Ends the server by its PID, as if it had died.
    public func stop() {
        _ = try? Command.run(Harness.scripts.appendingPathComponent("stop-pulse.sh").path, [directory.path], timeout: 30)
    }

    /// Adds another null sink; returns its module index (for `unloadModule`).
    public func addNullSink(_ name: String) throws -> String {
        let result = try Command.run("pactl", ["load-module", "module-null-sink", "sink_name=\(name)",
                                               "rate=48000", "channels=2", "format=s16le", "norewinds=1"],
                                     environment: environment, timeout: 10)
        try result.requireSuccess()
        return String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    public func unloadModule(_ index: String) throws {
        try Command.run("pactl", ["unload-module", index], environment: environment, timeout: 10).requireSuccess()
    }

    /// Records what `sink` plays (its monitor), as 48 kHz stereo float, until `stop()`.
    public func record(sink name: String? = nil) throws -> Recording {
        let file = directory.appendingPathComponent("monitor-\(UUID().uuidString.prefix(6)).raw")
        // --latency-msec=20: the default (2 s) fragments would lose the end when stopped.
        return try Recording(executable: "parec", arguments: [
            "--latency-msec=20", "-d", "\(name ?? sink).monitor", "--rate=48000", "--channels=2",
            "--format=float32le", "--raw", file.path,
        ], environment: environment, file: file, format: .rawFloat(rate: 48000, channels: 2), bytesPerSecond: 48000 * 2 * 4)
    }
}

/// A private `jackd -d dummy` (48 kHz, period 1024), stopped by PID when released.
public final class JackServer: @unchecked Sendable {
    public let directory: URL
    public private(set) var name: String
    public private(set) var environment: [String: String] = [:]

    public init() throws {
        directory = try Harness.shortDirectory("abp-jack")
        name = "abp_" + directory.lastPathComponent.suffix(8)
        do {
            try start()
        } catch {
            // jackd now and then refuses a fresh name ("server already active") when several
            // servers start at once; one more try under another name.
            name = "abp_" + UUID().uuidString.prefix(8).lowercased()
            try start()
        }
    }

    deinit { stop() }

    public func start() throws {
        environment = try Harness.run("start-jack.sh", [directory.path, name])
    }

    public func stop() {
        _ = try? Command.run(Harness.scripts.appendingPathComponent("stop-jack.sh").path, [directory.path], timeout: 30)
    }

    /// The server's port names now.
    public func ports() -> [String] {
        guard let result = try? Command.run("jack_lsp", [], environment: environment, timeout: 10) else { return [] }
        return String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Waits until `port` exists and is connected somewhere (a client's ports appear when it
    /// registers them, but can be connected only once it is active); false after `timeout` seconds.
    public func waitForPort(_ port: String, timeout: Double = 10) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(timeout)
        while clock.now < deadline {
            if let result = try? Command.run("jack_lsp", ["-c", port], environment: environment, timeout: 10),
               String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").count > 1 { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// Records `ports` (16-bit WAV) for `seconds`, in the background.
    public func record(ports: [String], seconds: Int) throws -> Recording {
        let file = directory.appendingPathComponent("rec-\(UUID().uuidString.prefix(6)).wav")
        return try Recording(executable: "jack_rec", arguments: ["-f", file.path, "-d", "\(seconds)"] + ports,
                             environment: environment, file: file, format: .wav, bytesPerSecond: 48000 * 2 * ports.count)
    }
}

/// An ALSA configuration with the PCM `testcap`: a `file` PCM over `null` that writes every sample
/// it is given to a raw file (not paced: a write returns at once).
public struct AlsaFilePCM: Sendable {
    public let directory: URL
    public let environment: [String: String]
    public let device = "testcap"

    public init() throws {
        directory = try Harness.shortDirectory("abp-alsa")
        environment = try Harness.run("alsa-file-asoundrc.sh", [directory.path])
    }

    /// What the PCM received at `rate` and `channels` (the plugin writes float32).
    public func captured(rate: Int, channels: Int) throws -> [Float] {
        let file = directory.appendingPathComponent("alsa-capture-\(rate)-\(channels)-FLOAT_LE.raw")
        return Recording.floats(in: try Data(contentsOf: file))
    }
}

/// A recorder running in the background (parec, jack_rec).
public final class Recording: @unchecked Sendable {
    public enum Format: Sendable {
        case rawFloat(rate: Int, channels: Int)
        case wav
    }

    public let file: URL
    let format: Format
    private let bytesPerSecond: Int
    private let process = Process()

    init(executable: String, arguments: [String], environment: [String: String], file: URL, format: Format,
         bytesPerSecond: Int) throws {
        self.file = file
        self.format = format
        self.bytesPerSecond = bytesPerSecond
        let inherited = ProcessInfo.processInfo.environment
        process.executableURL = try Command.locate(executable, searchPath: inherited["PATH"] ?? "/usr/bin:/bin")
        process.arguments = arguments
        process.environment = inherited.merging(environment) { _, new in new }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    deinit { if !process.hasEnded { process.terminate() } }

    /// Seconds of audio the recorder has written so far, from its file's size (a WAV's header
    /// counted as audio: a few milliseconds). A recorder on a null sink's monitor writes silence
    /// while nothing plays, so this grows with the server's clock from the start.
    public var recordedSeconds: Double {
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? nil
        return Double(size ?? 0) / Double(bytesPerSecond)
    }

    /// Waits until the recorder has written `seconds` more than it had: at the start, that it
    /// records (so the first second played is heard); after the player ended, that what it played
    /// came through the server into the file (before `finish()`); during a pause, that the silence
    /// is in the recording. False after `timeout` seconds.
    public func waitForMore(seconds: Double, within timeout: Double = 30) async -> Bool {
        let start = recordedSeconds
        return await waitUntil(within: timeout, every: 0.02) { self.recordedSeconds >= start + seconds }
    }

    /// What a raw recorder (parec) has written so far, as interleaved floats, while it goes on.
    public func samplesSoFar() throws -> [Float] {
        Self.floats(in: try Data(contentsOf: file))
    }

    /// Stops the recorder and returns the audio as interleaved floats with its rate and channel
    /// count. SIGKILL, because children of the test runner inherit its blocked signal mask (SIGINT
    /// and SIGTERM would never arrive); parec writes as it records, so only its last 20 ms
    /// fragment can be lost, and callers stop it well after the audio ended.
    public func finish() throws -> (samples: [Float], rate: Int, channels: Int) {
        process.kill()
        switch format {
        case let .rawFloat(rate, channels):
            return (Self.floats(in: try Data(contentsOf: file)), rate, channels)
        case .wav:
            let wav = try WavFile.read(file)
            return (wav.samples, wav.rate, wav.channels)
        }
    }

    /// Waits (as a task, not blocking a thread) for a recorder with a duration of its own
    /// (jack_rec -d) to end.
    public func waitAndFinish() async throws -> (samples: [Float], rate: Int, channels: Int) {
        while !process.hasEnded { try await Task.sleep(for: .milliseconds(50)) }
        return try finish()
    }

    static func floats(in data: Data) -> [Float] {
        data.withUnsafeBytes { raw in Array(raw.bindMemory(to: Float.self)) }
    }
}
