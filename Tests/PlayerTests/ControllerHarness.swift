import Foundation
import Synchronization
import Library
import Listening
@testable import Player
import PlayerCore
import PluginHost
import TestSupport

/// A player controller as a front end drives it, with nothing faked: the built plugins, a real
/// engine on the test's clock (`clocked:`; the null or wav sink as fast as it decodes, or paced
/// for the one test that records a seek in real time), a library in a real SQLite file, and books
/// of time-coded MP3s made by lame. The controller's events and timers come back through `wake`
/// and are handed to it on the test's own task, as the REPL does.
final class ControllerHarness {
    static let registry = PluginRegistry(
        searchPath: PluginSearchPath(directories: [
            .init(path: BuildProducts.binDirectory.path, isExplicit: true, filePrefix: "libabplayer-"),
        ]),
        cacheDirectory: nil, log: { _, _, _ in })

    let folder: URL
    let library: LibraryDatabase
    let controller: PlayerController
    /// The controller's inputs, and the deadlines of `run` (by number: a late one from an
    /// earlier run is ignored).
    private enum Input: Sendable {
        /// Something was put in `queued`.
        case arrived
        case deadline(Int)
        case libraryChanged([LibraryChange])
    }
    private var inputs: AsyncStream<Input>.Iterator
    private let continuation: AsyncStream<Input>.Continuation
    private var runs = 0
    /// The engine events seen so far, in order.
    private(set) var events: [PlaybackEvent] = []
    /// What the controller said unasked.
    private(set) var notices: [PlayerNotice] = []
    /// The library watch, once `watchLibrary()` started it; what it reported so far.
    private var watch: LibraryWatch?
    private(set) var libraryChanges: [LibraryChange] = []

    /// `paced`: the null sink plays in real time; else as fast as the decoder goes.
    /// `wavOutput`: the wav sink writes what is heard to this file instead (paced the same way).
    convenience init(_ name: String, paced: Bool = true, wavOutput: URL? = nil) throws {
        let registry = Self.registry
        let sink = wavOutput.map { ("wav", ["path": $0.path]) } ?? ("null", [:])
        let outputs = Outputs(
            open: { _ in try registry.sinkOpener(pluginID: sink.0, options: sink.1.merging(["paced": paced ? "true" : "false"]) { $1 }) },
            automatic: { _ in AutomaticOutput(name: sink.0) }, names: [sink.0])
        try self.init(name, outputs: outputs, clock: MonotonicClock())
    }

    /// On the test's clock: the player's timers run on `clock`, and the output is `output`, which
    /// takes audio only in `advance` (GstTestClock's and FakeClock's way). Nothing plays between
    /// two calls of `advance`, however long the machine takes.
    convenience init(clocked name: String, output: ClockedOutput = ClockedOutput()) throws {
        let outputs = Outputs(open: { _ in output }, automatic: { _ in AutomaticOutput(name: "clocked") }, names: ["clocked"])
        let clock = ManualClock()
        try self.init(name, outputs: outputs, clock: clock)
        manualClock = clock
        clockedOutput = output
    }

    private init(_ name: String, outputs: Outputs, clock: any PlayerClock) throws {
        folder = try BuildProducts.temporaryDirectory("player-\(name)")
        library = try LibraryDatabase(path: folder.appending(path: "library.sqlite").path)
        let (stream, continuation) = AsyncStream.makeStream(of: Input.self)
        inputs = stream.makeAsyncIterator()
        self.continuation = continuation
        let queued = queued
        controller = PlayerController(library: library, decoders: Self.registry, outputs: outputs, output: nil, clock: clock,
                                      wake: { input in
                                          queued.items.withLock { $0.append(input) }
                                          continuation.yield(.arrived)
                                      })
        controller.onNotice = { [unowned self] in notices.append($0) }
    }

    /// The test's clock and output, for a harness made `clocked`.
    private(set) var manualClock: ManualClock?
    private(set) var clockedOutput: ClockedOutput?
    /// What the controller posted (engine events, timers), in order, not yet handed to it:
    /// posted on other threads, handed over on the test's task.
    private let queued = InputQueue()
    private final class InputQueue: Sendable {
        let items = Mutex<[PlayerInput]>([])
    }

    deinit {
        clockedOutput?.release()
        watch?.stop()
        controller.close()
    }

    /// Watches the library's folders as the REPL and `listen` do: what the watch changes is
    /// handed to the controller (`libraryChanged`) on the test's task, between engine events.
    func watchLibrary() throws {
        let continuation = continuation
        let watch = try LibraryWatch(library: library, inspector: DecoderInspector(decoders: Self.registry)) {
            continuation.yield(.libraryChanged($0))
        }
        try watch.start()
        self.watch = watch
    }

    /// A file of the time-coded signal, `seconds` long, copied into the book folder `title`
    /// (where `book` made it) as `name`, as a listener copies one in.
    func addFile(_ name: String, seconds: Int, toBook title: String) throws {
        let source = try Fixtures.mp3(seconds: seconds, rate: 22050, channels: 1, vbr: false)
        try FileManager.default.copyItem(at: source, to: folder.appending(path: title).appending(path: name))
    }

    /// Imports a book `title` whose items are time-coded MP3s of these lengths (each a different
    /// file: the library knows files by content). Returns its id.
    func book(_ title: String, itemSeconds: [Int], firstNumber: Int = 1) throws -> Int64 {
        let bookFolder = folder.appending(path: title)
        try FileManager.default.createDirectory(at: bookFolder, withIntermediateDirectories: true)
        for (index, seconds) in itemSeconds.enumerated() {
            try addFile(String(format: "%02d.mp3", index + firstNumber), seconds: seconds, toBook: title)
        }
        let importer = Importer(library: library, inspector: DecoderInspector(decoders: Self.registry))
        _ = try importer.importPaths([bookFolder.path])
        return try library.books.book(matching: title).id!
    }

    @discardableResult
    func perform(_ command: PlayerCommand) throws -> PlayerOutcome {
        try controller.perform(command)
    }

    var status: Status { controller.status! }

    /// Hands the controller its inputs until `condition` holds; false when `seconds` passed first.
    /// The deadline is generous: blocking tests of other suites can hold every thread of the
    /// cooperative pool for many seconds, and it only matters when the condition never comes.
    @discardableResult
    func run(until condition: () -> Bool, seconds: Double = 90) async -> Bool {
        runs += 1
        let run = runs
        let continuation = continuation
        let timer = atDeadline(in: seconds) { continuation.yield(.deadline(run)) }
        defer { timer.cancel() }
        while true {
            handleQueued()
            if condition() { return true }
            switch await inputs.next() {
            case .arrived?:
                continue
            case let .deadline(number)?:
                if number == run { return condition() }
            case let .libraryChanged(changes)?:
                libraryChanges += changes
                controller.libraryChanged(changes)
            case nil:
                return false
            }
        }
    }

    /// Plays `duration` on the test's clock (a harness made `clocked`): while the engine plays,
    /// the output takes exactly that much audio, in steps of at most `step` that also stop at
    /// every alarm due on the way; after each step the engine has done what it made due and
    /// the controller has handled what it posted, before the clock moves on.
    func advance(by duration: Duration, step: Duration = .milliseconds(100)) {
        guard let clock = manualClock, let output = clockedOutput else { fatalError("advance needs a clocked harness") }
        let target = clock.now + duration
        settle()
        while clock.now < target {
            var end = min(target, clock.now + step)
            if let alarm = clock.nextDeadline, alarm > clock.now, alarm < end { end = alarm }
            let length = end - clock.now
            if controller.session?.state == .playing {
                // Asked to play: the engine starts its output once it has audio to give.
                _ = waitUntil(within: 30, every: 0.001) { output.isPlaying || controller.session?.state != .playing }
            }
            if output.isPlaying, let rate = output.sinkRate {
                output.pull(Int((Double(rate) * (length / .seconds(1))).rounded()))
            }
            clock.advance(by: length)
            settle()
        }
    }

    /// Hands the controller what was posted until the engine has handled every command sent
    /// (a pause is paused, and its event handled, before the clock moves on).
    private func settle() {
        repeat {
            handleQueued()
            if let engine = controller.session?.engine {
                _ = waitUntil(within: 30, every: 0.0005) { !engine.isHandlingCommands }
            }
        } while !queued.items.withLock(\.isEmpty)
    }

    /// Hands the controller everything posted so far, in order.
    private func handleQueued() {
        while let input = queued.items.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
            if case let .engine(event, _) = input { events.append(event) }
            controller.handle(input)
        }
    }

    /// Runs until the engine reports hearing a place that satisfies `condition`.
    @discardableResult
    /// On the test's clock (a harness made `clocked`), the clock runs until then, at most
    /// `seconds` of it: nothing is heard while the test does not advance it.
    func runUntilHeard(seconds: Double = 90, _ condition: @escaping (PlaybackPosition) -> Bool) async -> Bool {
        let seen = events.count
        let heard = { [unowned self] in
            events.dropFirst(seen).contains { if case let .position(heard) = $0 { condition(heard) } else { false } }
        }
        if manualClock != nil { return advance(until: heard, within: .seconds(seconds)) }
        return await run(until: heard, seconds: seconds)
    }

    /// The items in the order the engine opened them, from event `from` on.
    func itemsOpened(from: Int = 0) -> [Int] {
        events.dropFirst(from).compactMap { if case let .itemChanged(info) = $0 { info.index } else { nil } }
    }

    func saved(_ bookId: Int64) throws -> (item: Int, frame: Int64) {
        try library.positions.startingPoint(ofBook: bookId)
    }
}
