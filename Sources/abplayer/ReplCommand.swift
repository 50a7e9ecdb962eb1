import ArgumentParser
import Console
import Foundation
import Library
import MPRIS
import Player
import PlayerCore
import PluginHost
import StandardStreams

/// The REPL (the default command): on a terminal with a prompt, line editing and history; from
/// a pipe one command per line; or the commands given with `-c`.
struct Repl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repl", abstract: "The interactive prompt (the default): play and browse books.",
        discussion: "At a terminal (and with --daemon) it starts with the book listened to last loaded, paused at its place. Standard input that is not a terminal is read as commands, one per line. The exit status is 0 when every command succeeded. Ctrl-C (SIGINT), SIGTERM or closing the terminal (SIGHUP) saves the position and exits. One player runs per library: started while one runs, the REPL (and -c) sends its commands to it. \(ControlSocketPath.helpText)")

    @OptionGroup var library: LibraryOptions
    @OptionGroup var plugins: PluginOptions

    @Option(help: ArgumentHelp("Where to play: \(PluginRegistry.outputSyntax) (`abplayer plugins`). Default: the first output plugin that opens, by priority.", valueName: "OUTPUT"))
    var output: String?

    @Option(name: .customShort("c"), help: ArgumentHelp("Run these commands (separated by ';') and exit.", valueName: "COMMANDS"))
    var commands: String?

    @Flag(help: "Play with no terminal: no prompt, no standard input; controlled through 'abplayer remote' (and MPRIS). SIGTERM or SIGINT saves the position and stops it.")
    var daemon = false

    func validate() throws {
        if daemon && commands != nil { throw ValidationError("--daemon takes no -c: send commands with 'abplayer remote'") }
    }

    func run() async throws { try await run(firstLine: nil) }

    /// `firstLine`: a command run before the prompt shows (`abplayer now`).
    func run(firstLine: String?) async throws {
        useUTF8CharacterType()
        let database = try library.open()
        let lock: PlayerLock
        switch try library.playOrJoin() {
        case let .player(claimed):
            lock = claimed
        case let .client(client):
            try await runAsClient(client, database: database, firstLine: firstLine)
            return
        }
        // Released by the service as it closes (after its socket is gone); here when it never ran.
        defer { lock.release() }
        let warnings = PluginWarnings()
        let registry = try plugins.makeRegistry(warnings: warnings)
        let outputs = Outputs.fromRegistry(registry)
        // The service owns the running player (and the lock, released when it closes); the
        // terminal, a script or pipe, the control socket and MPRIS are its clients.
        let service = PlayerService(library: database, decoders: registry, outputs: outputs,
                                    output: try output.map { try registry.resolveOutput($0).description }, lock: lock)
        // Before the face starts: a hook refused is said before its first line runs.
        service.runListenersHooks(aboveThePrompt: !daemon && commands == nil && isatty(STDIN_FILENO) == 1)
        let face: any PlayerFace
        var reader: Notices?
        if daemon {
            face = LinesFace(.remoteOnly, service: service, firstLine: firstLine)
        } else if let commands {
            face = LinesFace(.script(commands), service: service, firstLine: firstLine)
        } else if isatty(STDIN_FILENO) == 1 {
            let console = Console(service: service, outputNames: outputs.names, historyPath: Console.historyPath(), firstLine: firstLine,
                                  plain: library.plain)
            reader = console.notices
            face = console
            StandardStream.output.write(console.greeting + "\n")
        } else {
            face = LinesFace(.standardInput, service: service, firstLine: firstLine)
        }
        let terminal = TerminalState()
        let inputs = service.inputs
        // At a terminal a file's warning is the REPL's to say: above its prompt, never into the
        // line being typed. (A script, a pipe or a daemon writes it to standard error at once.)
        if face is Console { warnings.sendToPlayer(inputs) }
        let notices = reader
        // SIGHUP too: closing the terminal (or the end of a daemon's desktop session) saves the
        // position like Ctrl-C.
        // Ctrl-C while a line is typed at the terminal clears that line (as in bash); from
        // anywhere else SIGINT stops the player like the others.
        let signals = TerminationSignals([SIGINT, SIGTERM, SIGHUP]) { signal in
            if signal == SIGINT, let notices, notices.interruptLineEditor() { return }
            inputs.yield(.terminate)
        }
        // The terminal closed (or the pipe read from it): a write found nobody reading. Stopped
        // as SIGHUP stops it, the place saved and the socket removed, rather than playing on
        // unheard-of with nothing to say it to.
        StandardStream.onReaderGone { _ in inputs.yield(.terminate) }
        // The library follows its folders while a player runs; a `-c` script ends too soon to need
        // it. Before the control socket: a client that finds the socket finds the player set up.
        if commands == nil { service.watchLibrary() }
        // A listener's player (the REPL at a terminal, the daemon) starts with the book listened
        // to last ready, paused at its place; before the socket and MPRIS, which then show it.
        if daemon || face is Console { service.cueBookListenedToLast() }
        let control: ControlSocketServer?
        do {
            control = try ControlSocketServer(at: library.controlSocket, inputs: inputs, broadcast: service.broadcast) {
                printError("abplayer: \($0)")
            }
        } catch {
            // Without its socket a daemon could not be reached; the REPL still works, but says so.
            printError("abplayer: control socket off: \(error)")
            if daemon {
                service.close()
                throw ExitCode.failure
            }
            control = nil
        }
        // MPRIS (media keys, desktop widgets, playerctl) while the REPL or the daemon runs; not
        // for a `-c` script.
        let mpris = commands == nil
            ? MPRISService.start(broadcast: service.broadcast, mimeTypes: registry.decoders.flatMap(\.mimeTypes), submit: { request in
                if case .enqueued = inputs.yield(.request(request)) { return true }
                return false
            })
            : nil
        service.stopAtClose {
            mpris?.stop()
            control?.stop()
        }
        let succeeded = await service.run(face)
        terminal.restore()
        withExtendedLifetime(signals) {}
        if !succeeded { throw ExitCode.failure }
    }
}

extension Repl {
    /// A player already runs on this library: this REPL sends its lines to it.
    func runAsClient(_ client: ControlClient, database: LibraryDatabase, firstLine: String?) async throws {
        if daemon {
            printError("abplayer: a player is already running on \(library.resolvedPath); reach it with 'abplayer remote COMMAND'")
            throw ExitCode.failure
        }
        let source: ReplInput
        var greeting: String?
        if let commands {
            source = .lines(.script(commands))
        } else if isatty(STDIN_FILENO) == 1 {
            // Output names come from the plugins this machine has, as in the player.
            let outputNames = (try? plugins.makeRegistry().outputNames) ?? []
            let completer = Completer(library: database, location: ShelfLocation(), outputNames: outputNames)
            let plainMode = PlainMode(forced: library.plain, chosen: (try? database.settings.playerPreferences())?.plainMode ?? false)
            source = .terminal(completer, historyPath: Console.historyPath(), plainMode: plainMode)
            greeting = "abplayer — a player already runs on this library; this prompt sends it your commands ('quit' leaves it playing)."
        } else {
            source = .lines(.standardInput)
        }
        let terminal = TerminalState()
        let succeeded = await RemoteRepl.run(source, client: client, library: database, firstLine: firstLine, greeting: greeting)
        terminal.restore()
        if !succeeded { throw ExitCode.failure }
    }
}

/// The terminal's settings at start, put back at exit: a signal may end the REPL while libedit
/// has the terminal in raw mode.
struct TerminalState {
    private let saved: termios?

    init() {
        var settings = termios()
        saved = isatty(STDIN_FILENO) == 1 && tcgetattr(STDIN_FILENO, &settings) == 0 ? settings : nil
    }

    func restore() {
        guard var settings = saved else { return }
        tcsetattr(STDIN_FILENO, TCSANOW, &settings)
    }
}

/// libedit's reading and the screen's character widths need a UTF-8 character type: the
/// user's locale when it is one, else C.UTF-8 (we always read and write UTF-8).
func useUTF8CharacterType() {
    let chosen = setlocale(LC_CTYPE, "").map { String(cString: $0) } ?? "C"
    if !chosen.uppercased().replacingOccurrences(of: "-", with: "").contains("UTF8") {
        setlocale(LC_CTYPE, "C.UTF-8")
    }
}
