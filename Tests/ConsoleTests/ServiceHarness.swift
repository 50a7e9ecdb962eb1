import Foundation
import Synchronization
@testable import Console
import Library
import Listening
import Player
import PlayerCore
import PluginHost
import TestSupport

/// A player service as its faces and clients meet it, with nothing faked but time: the built
/// plugins, a library in a real SQLite file, books of time-coded MP3s made by lame, the tests'
/// output (`ClockedOutput`: audio is taken only when a client pulls it) and clock. The service
/// runs on the test's task (`run`); its clients are threads of their own, as the control
/// socket's connections are, sending lines and typed requests through its inputs.
final class ServiceHarness {
    static let registry = PluginRegistry(
        searchPath: PluginSearchPath(directories: [
            .init(path: BuildProducts.binDirectory.path, isExplicit: true, filePrefix: "libabplayer-"),
        ]),
        cacheDirectory: nil, log: { _, _, _ in })

    let folder: URL
    let library: LibraryDatabase
    let output = ClockedOutput()
    let service: PlayerService
    /// What the service said with no client asking (the player's notices, library changes).
    let said = SaidLines()

    init(_ name: String) throws {
        folder = try BuildProducts.temporaryDirectory("service-\(name)")
        library = try LibraryDatabase(path: folder.appending(path: "library.sqlite").path)
        let output = output
        let outputs = Outputs(open: { _ in output }, automatic: { _ in AutomaticOutput(name: "clocked") }, names: ["clocked"])
        service = PlayerService(library: library, decoders: Self.registry, outputs: outputs, output: nil,
                                clock: ManualClock(), say: said)
    }

    deinit { output.release() }

    /// Imports a book `title` onto `shelf` whose items are time-coded MP3s of these lengths (each a
    /// different length across the harness: the library knows files by content).
    @discardableResult
    func book(_ title: String, shelf: String? = nil, itemSeconds: [Int]) throws -> Int64 {
        let bookFolder = folder.appending(path: title)
        try FileManager.default.createDirectory(at: bookFolder, withIntermediateDirectories: true)
        for (index, seconds) in itemSeconds.enumerated() {
            let source = try Fixtures.mp3(seconds: seconds, rate: 22050, channels: 1, vbr: false)
            try FileManager.default.copyItem(at: source, to: bookFolder.appending(path: String(format: "%02d.mp3", index + 1)))
        }
        let importer = Importer(library: library, inspector: DecoderInspector(decoders: Self.registry))
        _ = try importer.importPaths([bookFolder.path], shelf: shelf)
        return try library.books.book(matching: title).id!
    }

    /// Runs the service with `clients` each on a thread of its own, until every one of them is
    /// done; then the service is told to stop, saves and closes. What the clients found is
    /// theirs to keep and is checked after.
    /// The service's task runs on a thread of its own (`ThreadExecutor`), not on the cooperative
    /// pool, which other tests' blocking work may hold for minutes in a full run.
    func run(_ clients: [@Sendable (ServiceClient) -> Void]) async {
        let face = ClientsFace(clients: clients, output: output, broadcast: service.broadcast)
        let service = service
        _ = await withTaskExecutorPreference(Self.executor) { await service.run(face) }
    }

    private static let executor = ThreadExecutor(name: "abplayer.test-service")
}

/// A client of the service, as a control socket connection is: lines run in its own shelf and
/// answered with a `RemoteReply`, typed commands (MPRIS's) answered with their outcome. Blocks
/// its thread until the service's task answers.
final class ServiceClient: Sendable {
    private let inputs: AsyncStream<ConsoleInput>.Continuation
    let shelf = ShelfLocation()
    let output: ClockedOutput
    let broadcast: PlayerBroadcast

    init(inputs: AsyncStream<ConsoleInput>.Continuation, output: ClockedOutput, broadcast: PlayerBroadcast) {
        self.inputs = inputs
        self.output = output
        self.broadcast = broadcast
    }

    /// A command line, as `abplayer remote LINE` sends it.
    func send(_ line: String) -> RemoteReply {
        let answer = Answer<RemoteReply>()
        inputs.yield(.remote(RemoteRequest(line: line, shelf: shelf) { answer.give($0) }))
        return answer.wait() ?? RemoteReply(ok: false, output: [], errors: ["no answer in 60 s"], quit: false, status: nil)
    }

    /// A typed command, as MPRIS sends one.
    func perform(_ command: PlayerCommand) -> Result<PlayerOutcome, PlayerError>? {
        let answer = Answer<Result<PlayerOutcome, PlayerError>>()
        inputs.yield(.request(PlayerRequest(.perform(command)) { answer.give($0) }))
        return answer.wait()
    }

    /// Plays `seconds` of audio: the output takes that much, once the engine has started it.
    @discardableResult
    func listen(seconds: Double) -> Int {
        guard waitUntil(within: 60, every: 0.001, { output.isPlaying }), let rate = output.sinkRate else { return 0 }
        return output.pull(Int(Double(rate) * seconds))
    }

    private final class Answer<Value: Sendable>: Sendable {
        private let value = Mutex<Value?>(nil)
        private let given = DispatchSemaphore(value: 0)

        func give(_ answer: Value) {
            value.withLock { $0 = answer }
            given.signal()
        }

        func wait() -> Value? {
            _ = given.wait(timeout: .now() + 60)
            return value.withLock { $0 }
        }
    }
}

/// The face the harness runs the service with: no lines of its own, only its clients' threads;
/// when the last is done, the service stops.
final class ClientsFace: PlayerFace {
    private let clients: [@Sendable (ServiceClient) -> Void]
    private let output: ClockedOutput
    private let broadcast: PlayerBroadcast

    init(clients: [@Sendable (ServiceClient) -> Void], output: ClockedOutput, broadcast: PlayerBroadcast) {
        self.clients = clients
        self.output = output
        self.broadcast = broadcast
    }

    func start(into inputs: AsyncStream<ConsoleInput>.Continuation) {
        let running = Running(clients.count)
        for client in clients {
            let connection = ServiceClient(inputs: inputs, output: output, broadcast: broadcast)
            Thread.detachNewThread {
                client(connection)
                if running.oneDone() { inputs.yield(.terminate) }
            }
        }
    }

    func handle(_ input: ConsoleInput) -> FaceVerdict { .goOn }

    /// How many clients still run.
    private final class Running: Sendable {
        private let count: Mutex<Int>
        init(_ count: Int) { self.count = Mutex(count) }
        /// True for the last one.
        func oneDone() -> Bool { count.withLock { $0 -= 1; return $0 == 0 } }
    }
}

/// What the service said to its own output.
final class SaidLines: CommandOutput, Sendable {
    let lines = Mutex<[String]>([])
    let problems = Mutex<[String]>([])

    func say(_ text: String, exact: Bool) { lines.withLock { $0.append(text) } }
    func complain(_ text: String) { problems.withLock { $0.append(text) } }
}
