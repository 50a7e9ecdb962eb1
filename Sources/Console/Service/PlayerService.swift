import Foundation
public import Library
public import Player
public import PlayerCore
import Listening
import StandardStreams

/// The running player, as MPD's `PlayerControl` is: it owns the player controller and the one
/// task everything it does happens on, the watch on the library's folders, the player lock, and
/// the command grammar every face speaks (`commands`). Its faces are clients: the REPL at a
/// terminal (`Console`), a script or pipe of commands, `listen` and `play` (`PlayerFace`, on
/// this task), and, from other threads or processes, the control socket and MPRIS, which hand
/// their requests to `inputs`. State goes out through `broadcast` (typed `Status` snapshots and
/// events) and the player's notices.
public final class PlayerService {
    public let player: PlayerController
    /// The command grammar, run against this player (lines from every face and the socket).
    public let commands: CommandRunner
    let library: LibraryDatabase
    let decoders: any DecoderOpener
    /// What the service's task reacts to; anyone may yield to it from any thread.
    public let inputs: AsyncStream<ConsoleInput>.Continuation
    private let stream: AsyncStream<ConsoleInput>
    /// The watch on the library's folders, while the player runs (`watchLibrary()`).
    var watch: LibraryWatch?
    /// Held while this service plays the library (one player per library), released at `close()`.
    private var lock: PlayerLock?
    /// The clients to stop at `close()` (the control socket, MPRIS), before the lock goes: a
    /// player started next must not find our socket, nor have its own removed by us.
    private var stopsAtClose: [() -> Void] = []
    private var closed = false

    /// `say` hears what the commands and the player's notices say when no face takes it over (a
    /// face sets `commands.output` to itself). `clock` is what the player's timers run on (the
    /// tests' own in tests).
    public init(library: LibraryDatabase, decoders: any DecoderOpener, outputs: Outputs, output: String?,
                clock: any PlayerClock = MonotonicClock(), lock: PlayerLock? = nil, say: any CommandOutput = StandardLines()) {
        let (stream, inputs) = AsyncStream.makeStream(of: ConsoleInput.self)
        self.stream = stream
        self.inputs = inputs
        self.library = library
        self.decoders = decoders
        self.lock = lock
        player = PlayerController(library: library, decoders: decoders, outputs: outputs, output: output,
                                  clock: clock, wake: { inputs.yield(.player($0)) })
        commands = CommandRunner(library: library, decoders: decoders, player: player, output: say, inputs: inputs)
        player.onNotice = { [unowned self, commands, player] notice in
            // A notice is one line, whatever its title holds.
            let text = TerminalText.visible(notice.text)
            // A plain-mode REPL on another terminal hears it too.
            announce(notice, text: text)
            // A new chapter, the sleep timer's last minute: a screen shows them; only a face
            // with none to show them on (plain mode) says them.
            if notice.isAnnouncement, !commands.announcesEvents { return }
            if notice.isProblem { commands.complain(text) } else { commands.say(text) }
            // The queue's next book started: a countdown carried on, or its sleep default armed.
            if case .started = notice, let sleep = player.status?.sleep { commands.say("sleep timer: \(sleep.text) ('sleep off' cancels it)") }
        }
    }

    /// The state and events for observers outside the terminal (MPRIS, the control socket).
    public var broadcast: PlayerBroadcast { player.broadcast }

    /// At the start of a listener's player (the REPL at a terminal, a daemon): the book listened
    /// to last, loaded paused at its place and said (`PlayerController.cueBookListenedToLast`).
    /// Not for a script or piped commands: what they do must not depend on what was listened to last.
    public func cueBookListenedToLast() {
        if let outcome = player.cueBookListenedToLast() { commands.show(outcome) }
    }

    /// Serves `face` (the face's own lines and keys), the socket's and MPRIS's requests and the
    /// player's events, all on this one task, until a `quit`, the face's end or `.terminate`;
    /// then saves the place and closes. Returns whether every command of the face succeeded.
    public func run(_ face: any PlayerFace) async -> Bool {
        face.start(into: inputs)
        var succeeded = true
        loop: for await input in stream {
            switch input {
            case .line, .key, .resize, .messageExpired, .endOfInput, .attachedStatus, .attachedLibraryChanged, .attachedPlayerStopped, .attachedAnnouncement:
                let (verdict, did) = commands.recordingOutcomes { face.handle(input) }
                // What the face's own line or key did, for plain-mode REPLs on other terminals.
                announce(did, requester: nil)
                switch verdict {
                case .goOn: break
                case .failed: succeeded = false
                case .stop: break loop
                }
            case let .player(event):
                player.handle(event)
                if face.followed(event) == .stop { break loop }
            case let .remote(request):
                // A remote client's failure is its own (in its reply), not the face's.
                let edits = player.libraryEdits
                let (outcome, did) = perform(request)
                if outcome == .quit { break loop }
                announce(did, requester: request.requester)
                // A library screen on this terminal shows what a client's `book rename` did.
                if player.libraryEdits != edits { face.libraryChanged([], commands: commands) }
                face.othersDid(did)
                face.playerChanged()
            case let .request(request):
                guard let did = perform(request) else { break loop }
                announce(did, requester: nil)
                face.othersDid(did)
                face.playerChanged()
            case let .libraryChanged(changes):
                // The book playing takes its new items without a break in what is heard.
                player.libraryChanged(changes)
                face.libraryChanged(changes, commands: commands)
            case let .libraryWatchFailed(message), let .pluginWarning(message), let .hookProblem(message):
                commands.complain(TerminalText.visible(message))
            case let .libraryWatchSkipped(files):
                LibraryText.watchSkippedLines(files).forEach(commands.complain)
            case let .chaptersDetected(request, result):
                commands.chaptersDetected(request, result)
                face.playerChanged()
            case .libraryImported:
                rewatchLibrary()
            case .terminate: break loop
            }
        }
        face.close()
        close()
        return succeeded
    }

    /// `stop` runs when the service closes, after the place is saved, before the lock is released.
    public func stopAtClose(_ stop: @escaping () -> Void) {
        stopsAtClose.append(stop)
    }

    /// Saves the position, stops playback, the watch and the clients given to `stopAtClose`, and
    /// lets the library go to another player: at quit, at the end of a script, on a signal. Once;
    /// later calls do nothing.
    public func close() {
        guard !closed else { return }
        closed = true
        stopWatchingLibrary()
        player.close()
        stopsAtClose.forEach { $0() }
        lock?.release()
        lock = nil
    }
}

/// A face of the player in the service's process (the REPL at a terminal, a script or a pipe
/// of commands, `listen`, `play`): it feeds its own inputs to the service and is told, on the
/// service's task, what happened. What playing a book means stays in the controller; a face
/// decides only how it shows things and when it is done.
public protocol PlayerFace: AnyObject {
    /// Starts feeding the face's inputs (lines, keys) into the service's stream.
    func start(into inputs: AsyncStream<ConsoleInput>.Continuation)
    /// One of the face's own inputs: a line, a key, a resize, the end of its input.
    func handle(_ input: ConsoleInput) -> FaceVerdict
    /// The player handled one of its engine events or timers.
    func followed(_ event: PlayerInput) -> FaceVerdict
    /// Something other than the face changed the player (a socket client, MPRIS, a detection ended).
    func playerChanged()
    /// What a socket client's or MPRIS's commands did to the player (before `playerChanged`):
    /// a face that shows no screen may say it.
    func othersDid(_ outcomes: [PlayerOutcome])
    /// The library changed: the watch changed books (the player has taken them; said, one line
    /// per book), or a socket client's command edited it (no changes listed).
    func libraryChanged(_ changes: [LibraryChange], commands: CommandRunner)
    /// The service stops: the face leaves its terminal as it found it.
    func close()
}

extension PlayerFace {
    public func followed(_ event: PlayerInput) -> FaceVerdict { .goOn }
    public func playerChanged() {}
    public func othersDid(_ outcomes: [PlayerOutcome]) {}
    public func libraryChanged(_ changes: [LibraryChange], commands: CommandRunner) {
        changes.map(LibraryText.changeLine).forEach(commands.say)
    }
    public func close() {}
}

/// What a face says after an input: go on, go on but remember a command failed (the exit
/// status), or stop the player.
public enum FaceVerdict: Sendable {
    case goOn, failed, stop
}

/// What the commands say, on standard output and standard error, with the control characters
/// of files made visible: a script's, a pipe's or a daemon's output.
public final class StandardLines: CommandOutput {
    public init() {}

    public func say(_ text: String, exact: Bool) {
        StandardStream.output.write((exact ? text : TerminalText.lines(text)) + "\n")
    }

    public func complain(_ text: String) {
        StandardStream.error.write(TerminalText.lines(text) + "\n")
    }
}
