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
        defer { lock.release() }
        let target = try reportingLibraryErrors(database) { try database.book(matching: book) }
        let registry = try plugins.makeRegistry()
        let (inputs, continuation) = AsyncStream.makeStream(of: ConsoleInput.self)
        // `listen` is a face of the player like the REPL: the controller loads the book at its
        // saved place, saves it, and says what happens; the console's grammar runs the lines
        // typed or piped to it (`+30`, `status`, `bookmark`, `quit`...), answered on standard
        // output. What is `listen`'s own: it plays at once, says on standard error when it is
        // heard, and ends with the book (and the queue).
        let console = Console(library: database, decoders: registry, outputs: .fromRegistry(registry),
                              output: try output.map { try registry.resolveOutput($0).description }, inputs: continuation)
        let player = console.player
        player.onNotice = { notice in
            if case let .outputMoved(message) = notice {
                // Headphones unplugged: not on through the speakers, and `listen` may have nobody
                // at its input (run in the background): it stops here, the position saved.
                printError("abplayer: \(message); stopped (position saved): `abplayer listen` continues there")
                continuation.yield(.terminate)
            } else if case .started = notice {
                // The queue's next book: said when it is heard, like the first.
            } else {
                printError("abplayer: \(notice.text)")
            }
        }
        // SIGHUP too: the terminal it runs in closed. Stopped like Ctrl-C, the place saved.
        let signals = TerminationSignals([SIGINT, SIGTERM, SIGHUP]) { _ in continuation.yield(.terminate) }
        // Likewise when what `listen` says can no longer be written (a closed pipe or terminal).
        StandardStream.onReaderGone { _ in continuation.yield(.terminate) }
        // A player like the REPL: the book's folder is watched while it plays, so a file copied
        // in joins the book (and is heard when the book gets there). Started before playing:
        // a file copied once the book is heard is seen.
        console.watchLibrary()
        do {
            try player.perform(.play(bookId: target.id!))
            // The book's sleep default, or else the listener's (the REPL's `set sleep`), is armed
            // as the book starts.
            if let sleep = player.status?.sleep { printError("abplayer: sleep timer: \(sleep) (your default)") }
        } catch {
            printError("abplayer: \(error)")
            console.close()
            throw ExitCode.failure
        }
        Self.readCommands(into: continuation)
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
            case let .line(line):
                if console.execute(line: line) == .quit { break loop }
                // Told to stop, or sent to another book: the book and its queue are what end it.
                if player.loadedBook == nil { break loop }
                continue
            case .endOfInput:
                continue // nobody types to it (run in the background, `< /dev/null`): it plays on
            case .terminate: break loop
            case .key, .resize, .remote, .request, .chaptersDetected, .attachedStatus, .attachedPlayerStopped: continue
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
                guard player.status?.state == .playing else { break loop }
                announced = false
            default:
                break
            }
        }
        console.close()
        withExtendedLifetime(signals) {}
        if !playedAny {
            printError("abplayer: stopped before anything played; the saved place is unchanged")
            throw ExitCode.failure
        }
    }

    /// Standard input's lines, one command each, onto `inputs` from a thread of their own
    /// (reading blocks); `.endOfInput` when it ends.
    private static func readCommands(into inputs: AsyncStream<ConsoleInput>.Continuation) {
        // `abplayer listen BOOK &` at a shell: a background job reading its terminal would be
        // stopped by SIGTTIN (and the book with it). Ignored, the read fails instead (EIO),
        // which ends the input here: the book plays on, taking no typed commands.
        signal(SIGTTIN, SIG_IGN)
        Thread.detachNewThread {
            while let line = readLine(strippingNewline: true) { inputs.yield(.line(line)) }
            inputs.yield(.endOfInput)
        }
    }
}
