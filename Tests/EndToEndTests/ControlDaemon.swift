import Foundation
import Synchronization
import TestSupport

/// A library of one time-coded book, a private runtime folder for the control socket, and
/// `abplayer --daemon` on them: what the control socket tests drive.
struct ControlFixture {
    let abplayer: AbplayerProcess
    let library: String
    /// XDG_RUNTIME_DIR: short (sun_path holds 108 bytes), private to the test.
    let runtime: String

    /// `seconds` of the time-coded signal as the book "Code" (one MP3 made by lame).
    init(_ name: String, seconds: Int = 12) throws {
        abplayer = try AbplayerProcess(name)
        library = abplayer.home.appending(path: "library.sqlite").path
        let template = strdup("/tmp/abpc-XXXXXX")!
        defer { free(template) }
        runtime = String(cString: mkdtemp(template))
        let folder = abplayer.home.appending(path: "Code")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try Fixtures.mp3(seconds: seconds, vbr: false), to: folder.appending(path: "01.mp3"))
        _ = try abplayer.run(["import", "--library", library, folder.path]).requireSuccess()
    }

    var environment: [String: String] { abplayer.environment.merging(["XDG_RUNTIME_DIR": runtime]) { _, new in new } }

    /// Where the socket of a library that is not the default one is: a single control-HASH file.
    func socketPath() -> String? {
        let folder = runtime + "/abplayer"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.first { $0.hasPrefix("control") }.map { folder + "/" + $0 }
    }

    /// `abplayer remote ARGUMENTS...` on this library.
    func remote(_ arguments: [String], json: Bool = false) throws -> CommandResult {
        try Command.run(BuildProducts.abplayer.path, ["remote", "--library", library] + (json ? ["--json"] : []) + arguments,
                        environment: environment, timeout: 30)
    }

    /// `remote status --json`, decoded.
    func status() throws -> PlaybackStatusJSON {
        let result = try remote(["status", "--json"]).requireSuccess()
        return try JSONDecoder().decode(PlaybackStatusJSON.self, from: result.stdout)
    }

    /// `status` asked until `condition` holds; nil after `seconds`. Each look is a `remote`
    /// process (a debug build's start, CPU the daemon and other tests need): four a second.
    func status(within seconds: Double, until condition: (PlaybackStatusJSON) -> Bool) throws -> PlaybackStatusJSON? {
        var last: PlaybackStatusJSON?
        let held = try waitUntil(within: seconds, every: 0.25) {
            last = try status()
            return condition(last!)
        }
        return held ? last : nil
    }

    /// The saved position of the book, read back from the library by `abplayer books`.
    func savedSeconds() throws -> Double? {
        let result = try abplayer.run(["books", "--json", "--library", library]).requireSuccess()
        return try JSONDecoder().decode(ListenTests.BookJSON.self, from: result.stdout).positionSeconds
    }

    func cleanUp() { try? FileManager.default.removeItem(atPath: runtime) }
}

/// `abplayer --daemon` kept running, its output collected.
final class DaemonProcess: Sendable {
    let process: Process
    private let output: URL

    /// `fileLimit`: the daemon runs with at most this many open files (`ulimit -n`).
    /// `sink`: nil lets the daemon choose its output by itself.
    init(_ fixture: ControlFixture, output sink: String?, environment extra: [String: String] = [:], library: String? = nil,
         fileLimit: Int? = nil) throws {
        process = Process()
        let arguments = ["--daemon", "--library", library ?? fixture.library] + (sink.map { ["--output", $0] } ?? [])
        if let fileLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -n \(fileLimit) && exec \"$0\" \"$@\"", BuildProducts.abplayer.path] + arguments
        } else {
            process.executableURL = BuildProducts.abplayer
            process.arguments = arguments
        }
        process.environment = ProcessInfo.processInfo.environment.merging(fixture.environment.merging(extra) { _, new in new }) { _, new in new }
        process.standardInput = FileHandle.nullDevice
        output = fixture.abplayer.home.appending(path: "daemon-\(UUID().uuidString.prefix(6)).log")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let log = try FileHandle(forWritingTo: output)
        process.standardOutput = log
        process.standardError = log
        try process.run()
    }

    deinit { if !process.hasEnded { kill(process.processIdentifier, SIGKILL) } }

    var log: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }

    /// Blocks until `path` exists (the daemon listens); false at the timeout or if it ended.
    func waitForSocket(_ path: () -> String?, timeout: TimeInterval = 20) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline && !process.hasEnded {
            if let path = path(), FileManager.default.fileExists(atPath: path) { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return false
    }

    /// Sends `signal` and waits for the end; the exit status, nil when it had to be killed.
    func stop(_ signal: Int32 = SIGTERM, timeout: TimeInterval = 20) -> Int32? {
        kill(process.processIdentifier, signal)
        return process.exitStatus(killingAfter: timeout)
    }
}

/// A raw client of the control socket (plain POSIX, as any script would do it): sends bytes,
/// reads reply lines.
final class RawSocketClient {
    let descriptor: Int32
    private var pending: [UInt8] = []

    init(path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8)
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            close(descriptor)
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "connect \(path): errno \(errno)"])
        }
    }

    deinit { close(descriptor) }

    func send(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = Glibc.send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                guard sent > 0 else { return }
                offset += sent
            }
        }
    }

    func send(line: String) { send(Array((line + "\n").utf8)) }

    /// The next line, nil when the player closed the connection.
    func readLine() -> String? {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let newline = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return nil }
            pending += chunk[..<count]
        }
    }

    /// Sends a line and decodes the reply.
    func request(_ line: String) -> ReplyJSON? {
        send(line: line)
        return readLine().flatMap { try? JSONDecoder().decode(ReplyJSON.self, from: Data($0.utf8)) }
    }
}

/// One reply of the control socket.
struct ReplyJSON: Decodable {
    let ok: Bool
    let output: [String]
    let errors: [String]
    let quit: Bool
    let status: PlaybackStatusJSON?
}
