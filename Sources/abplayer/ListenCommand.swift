import ArgumentParser
import Console
import Foundation
import Library
import Listening
import Player
import PlayerCore
import PluginHost
import StandardStreams

struct Listen: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play a book from its saved position, saving the position every second and at exit.",
        discussion: "A finished book starts again from the top; when it ends, the queue's next book plays. Standard input takes the REPL's commands, one a line ('+30', 'status', 'bookmark NOTE', 'quit'...), answered on standard output; when it ends (or in the background) the book plays on. Ctrl-C (SIGINT), SIGTERM, closing the terminal (SIGHUP) or closing the pipe it writes to saves and exits.")

    @OptionGroup var library: LibraryOptions
    @OptionGroup var plugins: PluginOptions

    @Option(help: ArgumentHelp("Where to play: \(PluginRegistry.outputSyntax) (`abplayer plugins`; a file output plays in real time). Default: the first output plugin that opens, by priority.", valueName: "OUTPUT"))
    var output: String?

    @Argument(help: "The book: #id or a unique part of its title.")
    var book: String

    func run() async throws {
        let database = try library.open()
        // One player per library: positions are written by one process only.
        guard let lock = try library.lockForPlaying() else {
            // `remote` reaches a REPL or a daemon, not another `listen` (it has no socket).
            if (try? ControlClient(path: library.controlSocket.path)) != nil {
                printError("abplayer: a player is already running on \(library.resolvedPath); use 'abplayer remote play \(Tokenizer.quoted(book))'")
            } else {
                printError("abplayer: another 'abplayer listen' is playing \(library.resolvedPath); stop it first (Ctrl-C where it runs)")
            }
            throw ExitCode.failure
        }
        // Released by the service as it closes; here when it never ran.
        defer { lock.release() }
        let target = try reportingLibraryErrors(database) { try database.books.book(matching: book) }
        let registry = try plugins.makeRegistry()
        // `listen` is a face of the player service like the REPL: the controller loads the book at
        // its saved place, saves it, and says what happens; the command grammar runs the lines
        // typed or piped to it (`+30`, `status`, `bookmark`, `quit`...), answered on standard
        // output. What is `listen`'s own (`ListenFace`): it plays at once, says on standard error
        // when it is heard, and ends with the book (and the queue).
        let service = PlayerService(library: database, decoders: registry, outputs: .fromRegistry(registry),
                                    output: try output.map { try registry.resolveOutput($0).description }, lock: lock)
        service.runListenersHooks(aboveThePrompt: false)
        let player = service.player
        let inputs = service.inputs
        player.onNotice = { notice in
            if case let .outputMoved(message) = notice {
                // Headphones unplugged: not on through the speakers, and `listen` may have nobody
                // at its input (run in the background): it stops here, the position saved.
                printError("abplayer: \(message); stopped (position saved): `abplayer listen` continues there")
                inputs.yield(.terminate)
            } else if case .started = notice {
                // The queue's next book: said when it is heard, like the first.
            } else if notice.isAnnouncement {
                // What a plain REPL announces (a new chapter...): not news on listen's standard error.
            } else {
                printError("abplayer: \(notice.text)")
            }
        }
        // SIGHUP too: the terminal it runs in closed. Stopped like Ctrl-C, the place saved.
        let signals = TerminationSignals([SIGINT, SIGTERM, SIGHUP]) { _ in inputs.yield(.terminate) }
        // Likewise when what `listen` says can no longer be written (a closed pipe or terminal).
        StandardStream.onReaderGone { _ in inputs.yield(.terminate) }
        // A player like the REPL: the book's folder is watched while it plays, so a file copied
        // in joins the book (and is heard when the book gets there). Started before playing:
        // a file copied once the book is heard is seen.
        service.watchLibrary()
        do {
            try player.perform(.play(bookId: target.id!))
            // The book's sleep default, or else the listener's (the REPL's `set sleep`), is armed
            // as the book starts.
            if let sleep = player.status?.sleep { printError("abplayer: sleep timer: \(sleep.text) (your default)") }
        } catch {
            printError("abplayer: \(error)")
            service.close()
            throw ExitCode.failure
        }
        let face = ListenFace(service: service)
        _ = await service.run(face)
        withExtendedLifetime(signals) {}
        if !face.playedAny {
            printError("abplayer: stopped before anything played; the saved place is unchanged")
            throw ExitCode.failure
        }
    }
}

/// `listen`'s face of the player: the REPL's commands from standard input (its end, or running
/// in the background, leaves the book playing), "heard" said on standard error when the first
/// audio of a book is heard, and the end of the book (with nothing queued) or `stop` the end.
final class ListenFace: PlayerFace {
    private let service: PlayerService
    /// Said "heard" for the book playing.
    private var announced = false
    /// Whether anything was heard in this run: stopped before that (the output never opened),
    /// `listen` did not do its job, and says so by its exit status.
    private(set) var playedAny = false

    init(service: PlayerService) {
        self.service = service
        service.commands.answersFollow = true
    }

    func start(into inputs: AsyncStream<ConsoleInput>.Continuation) {
        // `abplayer listen BOOK &` at a shell: a background job reading its terminal would be
        // stopped by SIGTTIN (and the book with it). Ignored, the read fails instead (EIO),
        // which ends the input here: the book plays on, taking no typed commands.
        signal(SIGTTIN, SIG_IGN)
        LinesFace.readStandardInput(into: inputs)
    }

    func handle(_ input: ConsoleInput) -> FaceVerdict {
        guard case let .line(line) = input else { return .goOn } // the end of the input: it plays on
        if service.commands.execute(line: line) == .quit { return .stop }
        // Told to stop, or sent to another book: the book and its queue are what end it.
        return service.player.loadedBook == nil ? .stop : .goOn
    }

    /// Said on standard error, like everything `listen` says of its own: standard output answers commands.
    func libraryChanged(_ changes: [LibraryChange], commands: CommandRunner) {
        for change in changes { printError("abplayer: \(LibraryText.changeLine(change))") }
    }

    func followed(_ event: PlayerInput) -> FaceVerdict {
        let player = service.player
        switch event {
        case .engine(.position, _) where !announced && player.hasPlayed:
            // Said when the first audio is heard: scripts (and the kill -9 test) time from here.
            guard let status = player.status, let book = player.loadedBook?.book else { return .goOn }
            announced = true
            playedAny = true
            printError("abplayer: \(PlayerNotice.heard(book: book, item: status.itemNumber - 1, seconds: status.itemPosition).text)")
        case .engine(.ended, _):
            // The book is over; the queue's next one may have started, else we are done.
            guard player.status?.state == .playing else { return .stop }
            announced = false
        default:
            break
        }
        return .goOn
    }
}
