public import Player
import Foundation
import Synchronization

/// The control socket: a line protocol taking the REPL's commands, one JSON object answered per
/// line, and `subscribe` for a stream of events. Each client has a thread of its own blocked in
/// read(), so a slow or stuck client stalls only itself: the console's task never touches a
/// socket, it only runs the lines (`ConsoleInput.remote`) and calls back with the reply.
public final class ControlSocketServer: Sendable {
    /// Longer lines are refused: no REPL command comes near it.
    public static let maximumLineLength = 16 * 1024

    public let path: String
    private let listener: Int32
    private let inputs: AsyncStream<ConsoleInput>.Continuation
    private let broadcast: PlayerBroadcast

    /// Listens at `location` (mode 0600 in a 0700 folder). A socket file left there by a player
    /// that crashed (connect() refused) is replaced; one that answers belongs to a running
    /// player, which is an error. `notice` hears what is worth a line (a stale socket replaced).
    public init(at location: ControlSocketPath, inputs: AsyncStream<ConsoleInput>.Continuation,
                broadcast: PlayerBroadcast, notice: (String) -> Void) throws(ControlSocketError) {
        try location.makeDirectory()
        path = location.path
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFSOCK else {
                throw ControlSocketError("\(path) exists and is not a socket; remove it")
            }
            switch try UnixSocket.connect(to: path) {
            case let .connected(descriptor):
                close(descriptor)
                throw ControlSocketError("another player answers at \(path)")
            case .failed:
                unlink(path)
                notice("replaced the stale control socket \(path) (a player that did not stop cleanly)")
            }
        }
        let listener = try UnixSocket.makeStream()
        let bound = try UnixSocket.withAddress(path) { bind(listener, $0, $1) }
        guard bound == 0, chmod(path, 0o600) == 0, listen(listener, 64) == 0 else {
            let reason = String(cString: strerror(errno))
            close(listener)
            throw ControlSocketError("cannot listen at \(path): \(reason)")
        }
        self.listener = listener
        self.inputs = inputs
        self.broadcast = broadcast
        Thread.detachNewThread { [self] in acceptClients() }
    }

    /// Stops taking clients and removes the socket file.
    public func stop() {
        unlink(path)
        // shutdown() wakes the thread blocked in accept(); close() alone would not.
        shutdown(listener, Int32(SHUT_RDWR))
    }

    private func acceptClients() {
        while true {
            let client = accept(listener, nil, nil)
            if client >= 0 { _ = fcntl(client, F_SETFD, FD_CLOEXEC) }
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                close(listener)
                return
            }
            Thread.detachNewThread { [self] in serve(client) }
        }
    }

    private func serve(_ client: Int32) {
        let reader = LineReader(client, maximumLength: Self.maximumLineLength)
        // The client's own shelf: its `cd` moves neither the terminal's nor another client's.
        let shelf = ShelfLocation()
        while let line = reader.next() {
            let reply: RemoteReply
            switch Self.parse(line) {
            case let .refused(reason):
                reply = RemoteReply(ok: false, output: [], errors: [reason])
            case .subscribe:
                subscribe(client, reader: reader)
                return
            case let .command(text):
                reply = run(text, in: shelf)
            }
            guard UnixSocket.send(Self.encode(reply), to: client) else { break }
        }
        close(client)
    }

    enum Request: Equatable {
        case command(String)
        case subscribe
        case refused(String)
    }

    static func parse(_ line: LineReader.Line) -> Request {
        guard case let .bytes(bytes) = line else {
            return .refused("line longer than \(maximumLineLength) bytes: refused")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .refused("the line is not UTF-8 text")
        }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return .refused("empty line: send a command, e.g. 'status --json' (or 'help')") }
        if trimmed == "subscribe" { return .subscribe }
        return .command(trimmed)
    }

    /// Runs a line on the console's task and waits for its reply.
    private func run(_ line: String, in shelf: ShelfLocation) -> RemoteReply {
        let answer = Locked<RemoteReply?>(nil)
        let answered = DispatchSemaphore(value: 0)
        let request = RemoteRequest(line: line, shelf: shelf) { reply in
            answer.withLock { $0 = reply }
            answered.signal()
        }
        if case .terminated = inputs.yield(.remote(request)) {
            return RemoteReply(ok: false, output: [], errors: ["the player is stopping"])
        }
        answered.wait()
        return answer.withLock { $0 } ?? RemoteReply(ok: false, output: [], errors: ["no answer"])
    }

    /// Streams events to `client` until it closes: this thread writes them; a second one reads
    /// the client's side only to notice its end. The last of the two to finish closes the socket.
    private func subscribe(_ client: Int32, reader: LineReader) {
        let queue = EventQueue()
        let finishers = Locked(2)
        let finish: @Sendable () -> Void = {
            if finishers.withLock({ $0 -= 1; return $0 }) == 0 { close(client) }
        }
        let events = broadcast.subscribe()
        let forwarder = Task.detached {
            for await event in events { queue.push(event) }
            queue.close()
        }
        Thread.detachNewThread {
            while reader.next() != nil {}
            queue.close()
            finish()
        }
        var written = UnixSocket.send(Self.encode(RemoteReply(ok: true, output: ["subscribed"], errors: [])), to: client)
        if written { written = UnixSocket.send(RemoteEventJSON.line(.changed(broadcast.current)), to: client) }
        while written, let event = queue.pop() {
            written = UnixSocket.send(RemoteEventJSON.line(event), to: client)
        }
        forwarder.cancel()
        queue.close()
        shutdown(client, Int32(SHUT_RDWR))
        finish()
    }

    static func encode(_ reply: RemoteReply) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return ((try? encoder.encode(reply)) ?? Data("{\"ok\":false}".utf8)) + Data("\n".utf8)
    }
}

/// A value behind a mutex that closures can share (a `Mutex` itself cannot be captured).
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    func withLock<Result: Sendable>(_ body: (inout sending Value) -> sending Result) -> Result {
        mutex.withLock(body)
    }
}

/// Events waiting for a subscriber's thread: pushed from the broadcast's stream, popped by the
/// thread that writes them (blocking while there are none). Keeps the newest 1,000.
final class EventQueue: Sendable {
    private struct State {
        var events: [PlayerUpdate] = []
        var isClosed = false
    }

    private let state = Mutex(State())
    private let available = DispatchSemaphore(value: 0)

    func push(_ event: PlayerUpdate) {
        state.withLock {
            $0.events.append(event)
            if $0.events.count > 1000 { $0.events.removeFirst() }
        }
        available.signal()
    }

    func close() {
        state.withLock { $0.isClosed = true }
        available.signal()
    }

    /// The next event, nil once closed.
    func pop() -> PlayerUpdate? {
        while true {
            let next: PlayerUpdate?? = state.withLock { state in
                if state.isClosed { return .some(nil) }
                return state.events.isEmpty ? nil : .some(state.events.removeFirst())
            }
            if let next { return next }
            available.wait()
        }
    }
}
