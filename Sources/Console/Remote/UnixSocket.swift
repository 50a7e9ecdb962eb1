import Foundation

/// The few POSIX socket calls the control socket needs, with `sockaddr_un` filled in once.
enum UnixSocket {
    /// sun_path holds 108 bytes with the terminating zero.
    static let maximumPathLength = 107

    static func withAddress<T>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) throws(ControlSocketError) -> T {
        let bytes = Array(path.utf8)
        guard bytes.count <= maximumPathLength else {
            throw ControlSocketError("the socket path \(path) is longer than \(maximumPathLength) bytes; set XDG_RUNTIME_DIR to a shorter folder")
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }

    static func makeStream() throws(ControlSocketError) -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw ControlSocketError("socket(): \(String(cString: strerror(errno)))") }
        return descriptor
    }

    enum Connection {
        case connected(Int32)
        /// connect()'s errno.
        case failed(Int32)
    }

    static func connect(to path: String) throws(ControlSocketError) -> Connection {
        let descriptor = try makeStream()
        let result = try withAddress(path) { Glibc.connect(descriptor, $0, $1) }
        if result == 0 { return .connected(descriptor) }
        let reason = errno
        close(descriptor)
        return .failed(reason)
    }

    /// The process at the other end of a connected socket (SO_PEERCRED: the kernel's record of
    /// who connected, not anything the peer says); nil when it cannot be read.
    static func peerProcess(_ descriptor: Int32) -> Int32? {
        // struct ucred { pid_t pid; uid_t uid; gid_t gid; }: Glibc declares it only under
        // _GNU_SOURCE, which Swift's Glibc module is not built with, so it is spelled out here.
        var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0, credentials.pid > 0 else { return nil }
        return credentials.pid
    }

    /// Writes all of `data`; false when the peer is gone. MSG_NOSIGNAL: a closed peer must not
    /// kill the player with SIGPIPE.
    static func send(_ data: Data, to descriptor: Int32) -> Bool {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = Glibc.send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += sent
            }
            return true
        }
    }
}

/// Reads a socket line by line with a cap on the length, blocking in poll() and read(). (`@unchecked`:
/// one thread at a time reads, the serving one and then, for `subscribe`, the one it hands it to.)
final class LineReader: @unchecked Sendable {
    enum Line: Equatable {
        case bytes([UInt8])
        /// A line longer than the cap (the connection is not read further).
        case tooLong
        /// A line not finished within `lineTimeout` of its first byte (not read further either).
        case unfinished
    }

    private let descriptor: Int32
    private let maximumLength: Int
    /// How long the peer may stay silent between lines; nil: forever (a subscriber only listens).
    var idleTimeout: Duration?
    /// How long one line may take from its first byte: a peer sending a byte now and then would
    /// otherwise hold its connection (and a thread) however short `idleTimeout` is.
    private let lineTimeout: Duration?
    private var buffer: [UInt8] = []
    /// When the first byte of the line in `buffer` came.
    private var lineStart: ContinuousClock.Instant?

    init(_ descriptor: Int32, maximumLength: Int, idleTimeout: Duration? = nil, lineTimeout: Duration? = nil) {
        self.descriptor = descriptor
        self.maximumLength = maximumLength
        self.idleTimeout = idleTimeout
        self.lineTimeout = lineTimeout
    }

    /// The next line without its newline; nil at the end of the stream or after `idleTimeout`.
    /// A line of more than `maximumLength` bytes (before the newline) is `.tooLong`, however the
    /// reads split it.
    func next() -> Line? {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                guard newline <= maximumLength else { return .tooLong }
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                lineStart = buffer.isEmpty ? nil : .now
                return .bytes(line.last == UInt8(ascii: "\r") ? Array(line.dropLast()) : line)
            }
            if buffer.count > maximumLength { return .tooLong }
            switch waitForBytes() {
            case .ready: break
            case .lineTimedOut: return .unfinished
            case .idle: return nil
            }
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            if buffer.isEmpty { lineStart = .now }
            buffer += chunk[..<count]
        }
    }

    private enum Wait { case ready, lineTimedOut, idle }

    /// Waits until the peer sends something, or the line's deadline or the idle time passes.
    private func waitForBytes() -> Wait {
        while true {
            let lineLeft = lineTimeout.flatMap { timeout in lineStart.map { $0 + timeout - .now } }
            if let lineLeft, lineLeft <= .zero { return .lineTimedOut }
            let limits = [lineLeft, buffer.isEmpty ? idleTimeout : nil].compactMap(\.self)
            guard let wait = limits.min() else { return .ready } // no limit: read() blocks
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            // Rounded up: a wait cut short by a millisecond would only poll again.
            let (seconds, attoseconds) = wait.components
            let milliseconds = Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
            let ready = poll(&poller, 1, milliseconds)
            if ready > 0 { return .ready }
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 { return .idle }
            // Timed out: the line's deadline is checked again at the top; else it was idle.
            if lineLeft.map({ $0 > wait }) ?? true { return .idle }
        }
    }
}
