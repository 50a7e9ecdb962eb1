import Foundation

/// A connection to a running player's control socket (`abplayer remote`, a client REPL).
public final class ControlClient {
    public let path: String
    /// The connection (a screen shuts it down to end its reader's wait: `AttachedScreen`).
    let descriptor: Int32
    private let reader: LineReader

    /// Connects; nil when no player listens there (no socket file, or a stale one).
    public init?(path: String) throws(ControlSocketError) {
        self.path = path
        switch try UnixSocket.connect(to: path) {
        case let .connected(descriptor):
            self.descriptor = descriptor
        case .failed(ENOENT), .failed(ECONNREFUSED):
            return nil
        case let .failed(code):
            throw ControlSocketError("cannot connect to \(path): \(String(cString: strerror(code)))")
        }
        reader = LineReader(descriptor, maximumLength: 64 * 1024 * 1024)
    }

    deinit { close(descriptor) }

    /// Sends one line and returns the reply; an error when the player went away.
    public func send(_ line: String) throws(ControlSocketError) -> RemoteReply {
        try write(line)
        guard let answer = readLine() else { throw ControlSocketError("the player at \(path) stopped", connectionClosed: true) }
        do {
            return try JSONDecoder().decode(RemoteReply.self, from: Data(answer.utf8))
        } catch {
            throw ControlSocketError("the player at \(path) answered something that is not a reply: \(answer)")
        }
    }

    public func write(_ line: String) throws(ControlSocketError) {
        guard UnixSocket.send(Data((line + "\n").utf8), to: descriptor) else {
            throw ControlSocketError("the player at \(path) stopped", connectionClosed: true)
        }
    }

    /// The next line the player sent; nil when it closed the connection.
    public func readLine() -> String? {
        guard case let .bytes(bytes) = reader.next() else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension RemoteReply {
    /// What a REPL would have shown: output lines (and a status asked for as JSON) for standard
    /// output, errors for standard error.
    public var standardOutputLines: [String] {
        output + (status.map { [$0.json] } ?? [])
    }
}
