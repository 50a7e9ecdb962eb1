public import Player
import Foundation
import Synchronization

/// The control socket: a line protocol taking the REPL's commands (or, for programs, one command as a
/// JSON object: `JSONRequest`), one JSON object answered per
/// line, and `subscribe` for a stream of events. Each client has a thread of its own blocked in
/// read(), so a slow or stuck client stalls only itself: the service's task never touches a
/// socket, it only runs the lines (`ConsoleInput.remote`) and calls back with the reply.
///
/// Nothing a client does closes the socket for the others: at most `maximumClients` are served
/// at once (one more is told so and closed), a command connection silent for `idleTimeout` is
/// closed, so is one that sends a line longer than `maximumLineLength` or takes longer than
/// `lineTimeout` to finish a line, and accept() failing for want of descriptors or memory is
/// retried, not fatal.
public final class ControlSocketServer: Sendable {
    /// Longer lines are refused: no REPL command comes near it.
    public static let maximumLineLength = 16 * 1024
    /// Clients served at once (a thread each).
    public static let maximumClients = 64
    /// How long a command connection may stay silent before it is closed: 10 minutes, or
    /// `ABPLAYER_CONTROL_IDLE_SECONDS`. A subscriber only listens, so it never times out.
    static var idleTimeout: Int { seconds("ABPLAYER_CONTROL_IDLE_SECONDS") ?? 600 }
    /// How long a client may take to send one line, from its first byte: 10 seconds (a script
    /// writes a line at once; a person types into a REPL, which sends whole lines), or
    /// `ABPLAYER_CONTROL_LINE_SECONDS`. Without it, 64 clients sending a byte every few seconds
    /// held every slot for good, the idle timeout never reached.
    static var lineTimeout: Int { seconds("ABPLAYER_CONTROL_LINE_SECONDS") ?? 10 }

    private static func seconds(_ variable: String) -> Int? {
        ProcessInfo.processInfo.environment[variable].flatMap(Int.init).map { max(1, $0) }
    }

    public let path: String
    private let listener: Int32
    private let inputs: AsyncStream<ConsoleInput>.Continuation
    private let broadcast: PlayerBroadcast
    private let clients = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)

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
        // Bound under a name of its own and renamed into place once it listens: between bind()
        // and listen() a connect is refused, and a client that found the socket then took it for
        // a stale one (seen beside stress-ng). Only the player holding the library's lock gets
        // here, so the name is never another's; hidden, so that nothing looking for the socket
        // finds it first. (A path too long for the extra characters is bound in place.)
        let hidden = (path as NSString).deletingLastPathComponent + "/." + (path as NSString).lastPathComponent + ".new"
        let staging = hidden.utf8.count <= UnixSocket.maximumPathLength ? hidden : path
        if staging != path { unlink(staging) }
        let bound = try UnixSocket.withAddress(staging) { bind(listener, $0, $1) }
        guard bound == 0, chmod(staging, 0o600) == 0, listen(listener, 64) == 0, rename(staging, path) == 0 else {
            let reason = String(cString: strerror(errno))
            close(listener)
            if staging != path { unlink(staging) }
            throw ControlSocketError("cannot listen at \(path): \(reason)")
        }
        self.listener = listener
        self.inputs = inputs
        self.broadcast = broadcast
        Thread.detachNewThread { [self] in
            Self.yieldToPlayback()
            acceptClients()
        }
    }

    /// Stops taking clients and removes the socket file.
    public func stop() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        unlink(path)
        // shutdown() wakes the thread blocked in accept(); close() alone would not.
        shutdown(listener, Int32(SHUT_RDWR))
    }

    private func acceptClients() {
        let idleTimeout = Duration.seconds(Self.idleTimeout), lineTimeout = Duration.seconds(Self.lineTimeout)
        var pause = Self.firstRetryPause
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                if stopping.load(ordering: .sequentiallyConsistent) {
                    close(listener)
                    return
                }
                if errno != EINTR && errno != ECONNABORTED {
                    // Out of descriptors (EMFILE: ~1,000 clients under the usual limit), of
                    // memory or buffers: what frees them (a client leaving) wakes no one here,
                    // so try again after a pause growing to a second, as servers do.
                    usleep(pause)
                    pause = min(pause * 2, 1_000_000)
                }
                continue
            }
            pause = Self.firstRetryPause
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            guard clients.add(1, ordering: .sequentiallyConsistent).newValue <= Self.maximumClients else {
                clients.subtract(1, ordering: .sequentiallyConsistent)
                refuse(client)
                continue
            }
            Thread.detachNewThread { [self] in
                Self.yieldToPlayback()
                serve(client, reader: LineReader(client, maximumLength: Self.maximumLineLength,
                                                 idleTimeout: idleTimeout, lineTimeout: lineTimeout))
                clients.subtract(1, ordering: .sequentiallyConsistent)
            }
        }
    }

    private static let firstRetryPause: useconds_t = 10_000

    /// Lowers the calling thread's priority to nice 10 (Linux keeps a nice value per thread, and
    /// `who` 0 means the calling thread). On a busy machine, clients hammering the socket then
    /// cannot take the CPU the decoder and the output need: what is heard matters more than how
    /// fast `status` answers. Lowering needs no privilege; a failure leaves the thread as it was.
    static func yieldToPlayback() {
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
    }

    /// One client too many: told so without waiting on it (a fresh socket's buffer takes the
    /// line), then closed.
    private func refuse(_ client: Int32) {
        let reply = Self.encode(RemoteReply(ok: false, output: [], errors: [
            "too many connections (\(Self.maximumClients) at once): close one and try again",
        ]))
        _ = reply.withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        close(client)
    }

    /// `reader` ends a silent client's wait (nil after its idle timeout), closing it.
    private func serve(_ client: Int32, reader: LineReader) {
        // The client's own shelf: its `cd` moves neither the terminal's nor another client's.
        let shelf = ShelfLocation()
        let requester = UnixSocket.peerProcess(client)
        while let line = reader.next() {
            let reply: RemoteReply
            var closing = false
            switch Self.parse(line) {
            case let .refused(reason):
                reply = RemoteReply(ok: false, output: [], errors: [reason])
            case let .dropped(reason):
                // Its rest is not read: skipping it would be reading what the cap is there to refuse.
                reply = RemoteReply(ok: false, output: [], errors: [reason])
                closing = true
            case .subscribe:
                // A subscriber only listens: no idle timeout for it.
                reader.idleTimeout = nil
                subscribe(client, reader: reader, peer: requester)
                return
            case let .command(text):
                reply = run(.line(text), in: shelf, requester: requester)
            case let .json(request):
                reply = run(.words(request.words, id: request.id), in: shelf, requester: requester)
            case let .refusedJSON(refusal):
                reply = RemoteReply(ok: false, output: [], errors: [refusal.reason], outcomes: [], id: refusal.id)
            }
            guard UnixSocket.send(Self.encode(reply), to: client), !closing else { break }
        }
        close(client)
    }

    enum Request: Equatable {
        case command(String)
        /// A line that is a JSON object (`JSONRequest`).
        case json(JSONRequest)
        case refusedJSON(JSONRequest.Refusal)
        case subscribe
        case refused(String)
        /// Answered with this error, then the connection is closed.
        case dropped(String)
    }

    static func parse(_ line: LineReader.Line) -> Request {
        let bytes: [UInt8]
        switch line {
        case let .bytes(read): bytes = read
        case .tooLong: return .dropped("line longer than \(maximumLineLength) bytes: refused, and the connection closed")
        case .unfinished: return .dropped("line not finished within \(lineTimeout) s of its first byte: the connection is closed")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .refused("the line is not UTF-8 text")
        }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return .refused("empty line: send a command, e.g. 'status --json' (or 'help')") }
        if trimmed == "subscribe" { return .subscribe }
        if trimmed.hasPrefix("{") {
            switch JSONRequest.parse(trimmed) {
            case let .success(request): return .json(request)
            case let .failure(refusal): return .refusedJSON(refusal)
            }
        }
        return .command(trimmed)
    }

    /// Runs a line (or a JSON request's words) on the service's task and waits for its reply.
    private func run(_ content: RemoteRequest.Content, in shelf: ShelfLocation, requester: Int32?) -> RemoteReply {
        let answer = Locked<RemoteReply?>(nil)
        let answered = DispatchSemaphore(value: 0)
        let request = RemoteRequest(content, shelf: shelf, requester: requester) { reply in
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
    /// An announcement made by a request of the subscriber's own process (`peer`) is left out: a
    /// plain-mode client REPL has said its reply already.
    private func subscribe(_ client: Int32, reader: LineReader, peer: Int32?) {
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
            if case let .announcement(announcement) = event, peer != nil, announcement.requester == peer { continue }
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
