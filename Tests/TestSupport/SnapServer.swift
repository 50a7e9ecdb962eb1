public import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A private Snapcast server (Debian's snapserver 0.26) reading one pipe source, `abplayer`, at
/// 48000:16:2, with its stream and JSON-RPC ports on 127.0.0.1 only (ports of its own, HTTP off)
/// and no D-Bus, so it cannot reach avahi to announce itself. Killed when released.
public final class SnapServer: @unchecked Sendable {
    public let directory: URL
    /// The pipe it reads; made before it starts.
    public let pipe: URL
    public let streamPort: Int
    public let controlPort: Int
    public static let streamName = "abplayer"
    private let process: Process

    /// What the JSON-RPC answered, or why not.
    public struct RPCError: Error, CustomStringConvertible {
        public let description: String
    }

    public init() throws {
        directory = try Harness.shortDirectory("abp-snap")
        pipe = directory.appendingPathComponent("snapfifo")
        guard mkfifo(pipe.path, 0o644) == 0 else { throw RPCError(description: "mkfifo \(pipe.path) failed") }
        (streamPort, controlPort) = (try Self.freePort(), try Self.freePort())
        let config = directory.appendingPathComponent("snapserver.conf")
        try """
            [server]
            datadir = \(directory.appendingPathComponent("data").path)
            [http]
            enabled = false
            [tcp]
            enabled = true
            bind_to_address = 127.0.0.1
            port = \(controlPort)
            [stream]
            bind_to_address = 127.0.0.1
            port = \(streamPort)
            source = pipe://\(pipe.path)?name=\(Self.streamName)&mode=read&sampleformat=48000:16:2
            [logging]
            sink = file:\(directory.appendingPathComponent("snapserver.log").path)
            """.write(to: config, atomically: true, encoding: .utf8)
        process = try Self.start("snapserver", ["-c", config.path], home: directory)
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(15)
        while (try? streamStatus()) == nil {
            guard !process.hasEnded, clock.now < deadline else {
                throw RPCError(description: "snapserver did not answer on 127.0.0.1:\(controlPort): \(log)")
            }
            usleep(50_000)
        }
    }

    deinit {
        process.kill()
    }

    /// snapserver's log so far (for failure messages).
    public var log: String {
        (try? String(contentsOf: directory.appendingPathComponent("snapserver.log"), encoding: .utf8)) ?? ""
    }

    /// The status of the stream (`playing`, `idle`) as `Server.GetStatus` reports it.
    public func streamStatus() throws -> String {
        let answer = try request(#"{"id":1,"jsonrpc":"2.0","method":"Server.GetStatus"}"#)
        guard let object = try JSONSerialization.jsonObject(with: answer) as? [String: Any],
              let result = object["result"] as? [String: Any], let server = result["server"] as? [String: Any],
              let streams = server["streams"] as? [[String: Any]],
              let stream = streams.first(where: { $0["id"] as? String == Self.streamName }),
              let status = stream["status"] as? String
        else { throw RPCError(description: "no stream \(Self.streamName) in \(String(decoding: answer, as: UTF8.self))") }
        return status
    }

    /// How many clients are connected now.
    public func connectedClients() throws -> Int {
        let answer = try request(#"{"id":2,"jsonrpc":"2.0","method":"Server.GetStatus"}"#)
        guard let object = try JSONSerialization.jsonObject(with: answer) as? [String: Any],
              let result = object["result"] as? [String: Any], let server = result["server"] as? [String: Any],
              let groups = server["groups"] as? [[String: Any]]
        else { throw RPCError(description: "no groups in \(String(decoding: answer, as: UTF8.self))") }
        let clients = groups.flatMap { $0["clients"] as? [[String: Any]] ?? [] }
        return clients.filter { $0["connected"] as? Bool == true }.count
    }

    /// A snapclient of this server that writes what it plays (48000:16:2) to a file.
    public func client() throws -> SnapClient {
        try SnapClient(server: self)
    }

    /// One JSON-RPC request over the TCP control port; the answer is one line.
    private func request(_ json: String) throws -> Data {
        let socket = try Self.loopbackSocket()
        defer { close(socket) }
        var address = Self.loopback(port: controlPort)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw RPCError(description: "connect: \(String(cString: strerror(errno)))") }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let line = Array((json + "\r\n").utf8)
        guard send(socket, line, line.count, Int32(MSG_NOSIGNAL)) == line.count else {
            throw RPCError(description: "send: \(String(cString: strerror(errno)))")
        }
        var answer = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while answer.last != UInt8(ascii: "\n") {
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count > 0 else { throw RPCError(description: "no answer to \(json)") }
            answer.append(contentsOf: buffer[..<count])
        }
        return answer
    }

    static func loopbackSocket() throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RPCError(description: "socket: \(String(cString: strerror(errno)))") }
        return fd
    }

    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// A port on 127.0.0.1 that nothing listens on now (the kernel's pick).
    static func freePort() throws -> Int {
        let socket = try loopbackSocket()
        defer { close(socket) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard bound else { throw RPCError(description: "no free port: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Starts a Snapcast program with no D-Bus (so no avahi) and no standard input.
    static func start(_ name: String, _ arguments: [String], home: URL) throws -> Process {
        let process = Process()
        let inherited = ProcessInfo.processInfo.environment
        process.executableURL = try Command.locate(name, searchPath: inherited["PATH"] ?? "/usr/bin:/bin")
        process.arguments = arguments
        process.environment = inherited.merging([
            "HOME": home.path, "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent",
            "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent",
        ]) { _, new in new }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }
}

/// A snapclient playing a `SnapServer`'s stream into a file (its `file` player), 48000:16:2, with
/// the server's 1 s buffer. Killed when released.
public final class SnapClient: @unchecked Sendable {
    public let file: URL
    private let process: Process

    init(server: SnapServer) throws {
        file = server.directory.appendingPathComponent("client-\(UUID().uuidString.prefix(6)).raw")
        process = try SnapServer.start("snapclient", [
            "-h", "127.0.0.1", "-p", "\(server.streamPort)", "--hostID", "abplayer-test-\(UUID().uuidString.prefix(8))",
            "--player", "file:filename=\(file.path)", "--logsink", "file:\(file.path).log",
        ], home: server.directory)
    }

    deinit {
        process.kill()
    }

    /// What it played so far, as interleaved floats (silence while the stream was idle too).
    public func samples() -> [Float] {
        FifoReader.floats(s16le: (try? Data(contentsOf: file)) ?? Data())
    }
}
