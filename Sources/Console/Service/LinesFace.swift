import PathNames
import Player
public import Foundation
import StandardStreams

/// Where the REPL's lines come from. Each source feeds the REPL's input stream from a thread of
/// its own (reading blocks), ending with `.endOfInput`.
public enum LineSource {
    /// `abplayer -c 'play Dune; seek 1:00:00; status'`: the whole script is one line.
    case script(String)
    /// Standard input that is not a terminal: one command per line, no prompt.
    case standardInput
    /// The terminal: libedit with a prompt showing the shelf, history and completion.
    case terminal(Completer, historyPath: String?)
    /// `abplayer --daemon`: no lines at all; the commands come from the control socket and
    /// MPRIS, and only a signal or a remote `quit` ends it.
    case remoteOnly

    public var isTerminal: Bool {
        if case .terminal = self { true } else { false }
    }

    /// Starts feeding `inputs`. `lineDone` is waited on after each typed line so the next prompt
    /// comes after the command's output; the REPL signals it when the command is done.
    /// `firstLine` runs before anything is read (`abplayer now`). While `keyMode` is on (a full
    /// screen shows) the terminal's thread reads keys instead of lines.
    func start(into inputs: AsyncStream<ConsoleInput>.Continuation, location: ShelfLocation, lineDone: DispatchSemaphore,
               notices: Notices, firstLine: String? = nil, keyMode: KeyMode) {
        switch self {
        case .remoteOnly:
            if let firstLine { inputs.yield(.line(firstLine)) }
        case let .script(text):
            if let firstLine { inputs.yield(.line(firstLine)) }
            inputs.yield(.line(text))
            inputs.yield(.endOfInput)
        case .standardInput:
            Thread.detachNewThread {
                if let firstLine { inputs.yield(.line(firstLine)) }
                while let line = readLine(strippingNewline: true) { inputs.yield(.line(line)) }
                inputs.yield(.endOfInput)
            }
        case let .terminal(completer, historyPath):
            Thread.detachNewThread {
                let editor = LineEditor(completer: completer, historyPath: historyPath, notices: notices)
                var next = firstLine
                while true {
                    if keyMode.isOn {
                        guard keyMode.readKeys(into: inputs, handled: lineDone) else { break }
                        continue
                    }
                    guard let line = next ?? editor.readLine(prompt: "abplayer \(location.display)> ") else { break }
                    next = nil
                    inputs.yield(.line(line))
                    lineDone.wait()
                }
                inputs.yield(.endOfInput)
            }
        }
    }

    /// `$XDG_STATE_HOME/abplayer/history` (default `~/.local/state`), its folder created; nil
    /// when neither XDG_STATE_HOME nor HOME is an absolute path (the prompt keeps no history).
    public static func historyPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        guard let base = XDGDirectory.path("XDG_STATE_HOME", default: ".local/state", environment: environment) else { return nil }
        let folder = base + "/abplayer"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder + "/history"
    }
}

extension Console {
    /// Runs commands from `source` and the engine's events until `quit`, the end of the input
    /// or `.terminate`, then saves the position. Returns whether every command succeeded.
    public func run(_ source: LineSource, inputs stream: AsyncStream<ConsoleInput>, firstLine: String? = nil) async -> Bool {
        let lineDone = DispatchSemaphore(value: 0)
        userIsAtPrompt = source.isTerminal
        isInteractive = source.isTerminal
        if case .script = source { answersFollow = false } else { answersFollow = true }
        source.start(into: inputs, location: location, lineDone: lineDone, notices: notices, firstLine: firstLine, keyMode: keyMode)
        var succeeded = true
        loop: for await input in stream {
            switch input {
            case let .line(line):
                userIsAtPrompt = false
                let outcome = execute(line: line, typed: source.isTerminal)
                if outcome == .failed { succeeded = false }
                if outcome == .quit { break loop }
                userIsAtPrompt = source.isTerminal
                lineDone.signal()
            case let .player(input):
                player.handle(input)
                redrawScreen()
            case let .key(key):
                handle(key)
                lineDone.signal()
            case .resize: redrawScreen()
            case let .remote(request):
                // A remote client's failure is its own (in its reply), not the session's.
                if perform(request) == .quit { break loop }
                redrawScreen()
            case let .request(request):
                guard perform(request) else { break loop }
                redrawScreen()
            case let .libraryChanged(changes):
                changes.map(LibraryText.changeLine).forEach(say)
                // The book playing takes its new items without a break in what is heard.
                player.libraryChanged(changes)
                reloadLibraryScreen()
                redrawScreen()
            case let .libraryWatchFailed(message):
                complain(TerminalText.visible(message))
            case let .chaptersDetected(request, result):
                chaptersDetected(request, result)
                redrawScreen()
            case .endOfInput, .terminate: break loop
            case .attachedStatus, .attachedPlayerStopped: break // a client's (RemoteRepl), not the player's
            }
        }
        closeScreen()
        // Left at the prompt (Ctrl-D, a signal): the shell's prompt starts on a line of its own.
        if source.isTerminal && userIsAtPrompt { StandardStream.output.write("\n") }
        close()
        return succeeded
    }
}
