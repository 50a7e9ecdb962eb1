import Foundation
public import Library
public import Player
import StandardStreams

/// The REPL at a terminal: a face of the player service that reads lines with libedit (a prompt
/// showing the shelf, history, completion), shows the full screens (`now`, `library`, `art`) and
/// reads their keys, and puts what is said above the prompt or on a screen's message line. The
/// commands themselves run through the service's `CommandRunner`, as every face's do.
public final class Console: PlayerFace, ScreenFace, CommandOutput {
    let service: PlayerService
    /// Lines for the line editor to print above the prompt (see `Notices`).
    public let notices = Notices()
    /// True while the line editor waits at the prompt (no typed line running): whatever is said
    /// then (engine messages, the queue's next book, the sleep timer) goes above the prompt
    /// instead of into the middle of what is being typed.
    var userIsAtPrompt = true
    /// The full screen showing (`now`, `art`), if any; keys are read while it shows.
    let screens = ScreenHost()
    /// The help being paged (`help all` in a small window), if any; keys are read while it shows.
    var pager: Pager?
    public let keyMode = KeyMode()
    /// Plain lines and announcements only (TERM=dumb, `--plain`, `set plain on`).
    public let plainMode: PlainMode
    private let completer: Completer
    private let historyPath: String?
    /// A command run before the prompt shows (`abplayer now`).
    private let firstLine: String?
    /// Signalled when a typed line (or a key) has been run: the next prompt comes after its output.
    private let lineDone = DispatchSemaphore(value: 0)

    var player: PlayerController { service.player }
    var library: LibraryDatabase { service.library }
    var commands: CommandRunner { service.commands }
    var inputs: AsyncStream<ConsoleInput>.Continuation { service.inputs }

    /// Takes over what `service`'s commands say, and its screen commands. `plain`: `--plain`.
    public init(service: PlayerService, outputNames: [String], historyPath: String?, firstLine: String? = nil, plain: Bool = false) {
        self.service = service
        // Unreadable preferences are no reason to refuse a prompt: the terminal and --plain decide then.
        plainMode = PlainMode(forced: plain, chosen: (try? service.library.settings.playerPreferences())?.plainMode ?? false)
        self.historyPath = historyPath
        self.firstLine = firstLine
        completer = Completer(library: service.library, location: service.commands.location, outputNames: outputNames)
        service.commands.output = self
        service.commands.screens = self
        service.commands.isInteractive = true
        service.commands.answersFollow = true
        service.commands.plainMode = plainMode
    }

    /// The REPL's first line at a terminal: Tab completes only where libedit reads the lines
    /// (in plain mode the terminal edits them itself: `PlainLineReader`).
    public var greeting: String {
        "abplayer — 'help' lists the commands, " + (plainMode.isOn ? "" : "Tab completes, ") + "Ctrl-D quits."
    }

    // MARK: PlayerFace

    public func start(into inputs: AsyncStream<ConsoleInput>.Continuation) {
        TerminalReader(completer: completer, historyPath: historyPath, notices: notices, keyMode: keyMode,
                       lineDone: lineDone, location: service.commands.location, plainMode: plainMode)
            .start(into: inputs, firstLine: firstLine)
    }

    public func handle(_ input: ConsoleInput) -> FaceVerdict {
        switch input {
        case let .line(line):
            userIsAtPrompt = false
            let outcome = commands.execute(line: line, typed: true)
            if outcome == .quit { return .stop }
            userIsAtPrompt = true
            lineDone.signal()
            return outcome == .failed ? .failed : .goOn
        case let .key(key):
            handle(key)
            lineDone.signal()
        case .resize, .messageExpired: redrawScreen()
        case .endOfInput: return .stop
        default: break
        }
        return .goOn
    }

    public func followed(_ event: PlayerInput) -> FaceVerdict {
        redrawScreen()
        return .goOn
    }

    public func playerChanged() { redrawScreen() }

    /// In plain mode what another client did that a screen would show (a pause, a move, a
    /// bookmark, the sleep timer) is said as if typed here, so that a pause from a media key is
    /// not silent; the rest (lists, settings) is that client's business.
    public func othersDid(_ outcomes: [PlayerOutcome]) {
        guard plainMode.isOn else { return }
        outcomes.filter(\.isSeenOnScreen).forEach(commands.show)
    }

    public func libraryChanged(_ changes: [LibraryChange], commands: CommandRunner) {
        changes.map(LibraryText.changeLine).forEach(commands.say)
        reloadLibraryScreen()
        redrawScreen()
    }

    public func close() {
        closePager()
        closeScreen()
        // Left at the prompt (Ctrl-D, a signal): the shell's prompt starts on a line of its own.
        if userIsAtPrompt { StandardStream.output.write("\n") }
    }

    // MARK: CommandOutput

    public func say(_ text: String, exact: Bool) {
        show(exact ? text : TerminalText.lines(text), on: StandardStream.output)
    }

    public func complain(_ text: String) {
        show(TerminalText.lines(text), on: StandardStream.error)
    }

    /// On the screen's message line, above the prompt, or as a line of its own while a command runs.
    private func show(_ text: String, on stream: StandardStream) {
        if showOnScreen(text) { return }
        // While the help is paged (`help all; status` included) what is said waits for the prompt.
        if userIsAtPrompt || pager != nil { notices.post(text) } else { stream.write(text + "\n") }
    }
}
