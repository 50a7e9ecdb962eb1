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
        discussion: "A finished book starts again from the top; when it ends, the queue's next book plays. Ctrl-C (SIGINT), SIGTERM, closing the terminal (SIGHUP) or closing the pipe it writes to saves and exits.")

    @OptionGroup var library: LibraryOptions
    @OptionGroup var plugins: PluginOptions

    @Option(help: ArgumentHelp("Where to play: \(PluginRegistry.outputSyntax) (`abplayer plugins`; a file output plays in real time). Default: the first output plugin that opens, by priority.", valueName: "OUTPUT"))
    var output: String?

    @Argument(help: "The book: #id or a unique part of its title.")
    var book: String

    /// What the listening loop is handed: the player's inputs, the library watch's reports, or a signal
    /// to stop.
    private enum Input: Sendable {
        case player(PlayerInput)
        /// What the library watch did, one change per book.
        case libraryChanged([LibraryChange])
        /// A pass of the library watch failed (it goes on watching).
        case libraryWatchFailed(String)
        case stop
    }

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
        defer { lock.release() }
        let target = try reportingLibraryErrors(database) { try database.book(matching: book) }
        let registry = try plugins.makeRegistry()
        let (inputs, continuation) = AsyncStream.makeStream(of: Input.self)
        // `listen` is an adapter over the player controller, like the REPL: the controller
        // loads the book at its saved place, saves it, and says what happens.
        let player = PlayerController(library: database, decoders: registry, outputs: .fromRegistry(registry),
                                      output: try output.map { try registry.resolveOutput($0).description }, wake: { continuation.yield(.player($0)) })
        player.onNotice = { notice in
            if case let .outputMoved(message) = notice {
                // Headphones unplugged: not on through the speakers. `listen` takes no commands,
                // so it stops here, the position saved; listening again continues there.
                printError("abplayer: \(message); stopped (position saved): `abplayer listen` continues there")
                continuation.yield(.stop)
            } else if case .started = notice {
                // The queue's next book: said when it is heard, like the first.
            } else {
                printError("abplayer: \(notice.text)")
            }
        }
        // SIGHUP too: the terminal it runs in closed. Stopped like Ctrl-C, the place saved.
        let signals = TerminationSignals([SIGINT, SIGTERM, SIGHUP]) { _ in continuation.yield(.stop) }
        // Likewise when what `listen` says can no longer be written (a closed pipe or terminal).
        StandardStream.onReaderGone { _ in continuation.yield(.stop) }
        // A player like the REPL: the book's folder is watched while it plays, so a file copied
        // in joins the book (and is heard when the book gets there). Started before playing:
        // a file copied once the book is heard is seen.
        let watch = Self.watchLibrary(database, decoders: registry, into: continuation)
        defer { watch?.stop() }
        do {
            try player.perform(.play(bookId: target.id!))
            // The book's sleep default, or else the listener's (the REPL's `set sleep`), is armed
            // as the book starts.
            if let sleep = player.status?.sleep { printError("abplayer: sleep timer: \(sleep) (your default)") }
        } catch {
            printError("abplayer: \(error)")
            throw ExitCode.failure
        }
        var announced = false
        // Whether anything was heard in this run: stopped before that (the output never
        // opened), `listen` did not do its job, and says so by its exit status.
        var playedAny = false
        loop: for await received in inputs {
            let input: PlayerInput
            switch received {
            case let .player(playerInput): input = playerInput
            case let .libraryChanged(changes):
                for change in changes { printError("abplayer: \(LibraryText.changeLine(change))") }
                player.libraryChanged(changes)
                continue
            case let .libraryWatchFailed(message):
                printError("abplayer: \(TerminalText.visible(message))")
                continue
            case .stop: break loop
            }
            player.handle(input)
            switch input {
            case .engine(.position, _) where !announced && player.hasPlayed:
                // Said when the first audio is heard: scripts (and the kill -9 test) time from here.
                guard let status = player.status, let book = player.loadedBook?.book else { continue }
                announced = true
                playedAny = true
                printError("abplayer: \(PlayerNotice.heard(book: book, item: status.itemNumber - 1, seconds: status.itemPosition).text)")
            case .engine(.ended, _):
                // The book is over; the queue's next one may have started, else we are done.
                guard player.status?.state == "playing" else { break loop }
                announced = false
            default:
                break
            }
        }
        player.close()
        withExtendedLifetime(signals) {}
        if !playedAny {
            printError("abplayer: stopped before anything played; the saved place is unchanged")
            throw ExitCode.failure
        }
    }

    /// Starts the library watch, its reports sent to the listening loop; nil (said in one line)
    /// when inotify cannot be used: listening goes on without it.
    private static func watchLibrary(_ database: LibraryDatabase, decoders: any DecoderOpener,
                                     into inputs: AsyncStream<Input>.Continuation) -> LibraryWatch? {
        do {
            let watch = try LibraryWatch(
                library: database, inspector: DecoderInspector(decoders: decoders),
                onError: { inputs.yield(.libraryWatchFailed($0)) },
                onChange: { inputs.yield(.libraryChanged($0)) })
            try watch.start()
            return watch
        } catch {
            printError("abplayer: \(LibraryText.watchOffLine(error))")
            return nil
        }
    }
}
