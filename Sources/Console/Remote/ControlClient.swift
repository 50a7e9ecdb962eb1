import Foundation

/// A connection to a running player's control socket (`abplayer remote`, a client REPL).
public final class ControlClient {
    public let path: String
    /// The connection (a screen shuts it down to end its reader's wait: `AttachedScreen`).
    private(set) var descriptor: Int32
    private var reader: LineReader

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
        reader = Self.reader(descriptor)
    }

    private static func reader(_ descriptor: Int32) -> LineReader {
        LineReader(descriptor, maximumLength: 64 * 1024 * 1024)
    }

    deinit { close(descriptor) }

    /// Sends one line and returns the reply; an error when the player went away. A connection
    /// the player closed before answering (one left silent past its idle timeout, 10 minutes: a
    /// prompt or a screen on a second terminal) is made again and the line sent on it: the line
    /// was never read, and only when no player answers is it gone.
    public func send(_ line: String) throws(ControlSocketError) -> RemoteReply {
        var answer = exchange(line)
        if answer == nil, reconnect() { answer = exchange(line) }
        guard let answer else { throw ControlSocketError("the player at \(path) stopped") }
        do {
            return try JSONDecoder().decode(RemoteReply.self, from: Data(answer.utf8))
        } catch {
            throw ControlSocketError("the player at \(path) answered something that is not a reply: \(answer)")
        }
    }

    /// The answer to `line`; nil when the connection closed before one came.
    private func exchange(_ line: String) -> String? {
        guard UnixSocket.send(Data((line + "\n").utf8), to: descriptor) else { return nil }
        return readLine()
    }

    /// Connects again; false when no player listens there any more.
    private func reconnect() -> Bool {
        guard case let .connected(connection)? = try? UnixSocket.connect(to: path) else { return false }
        close(descriptor)
        descriptor = connection
        reader = Self.reader(connection)
        return true
    }

    public func write(_ line: String) throws(ControlSocketError) {
        guard UnixSocket.send(Data((line + "\n").utf8), to: descriptor) else {
            throw ControlSocketError("the player at \(path) stopped")
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
