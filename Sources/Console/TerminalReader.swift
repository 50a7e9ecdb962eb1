import Foundation

/// The terminal's reading thread, for the REPL (`Console`) and a client REPL (`RemoteRepl`):
/// libedit (or, on a TERM=dumb terminal, the terminal itself) reads a line at a time, each waited for (`lineDone`) so that the next prompt comes
/// after the command's output; while `keyMode` is on (a full screen shows) it reads keys instead.
/// `.endOfInput` when the terminal's input ends (Ctrl-D).
struct TerminalReader {
    let completer: Completer
    let historyPath: String?
    let notices: Notices
    let keyMode: KeyMode
    let lineDone: DispatchSemaphore
    /// The shelf shown in the prompt.
    let location: ShelfLocation
    /// Read for every line: `set plain on` takes the terminal's own editing from the next one.
    let plainMode: PlainMode

    /// `firstLine` runs before anything is read (`abplayer now`).
    func start(into inputs: AsyncStream<ConsoleInput>.Continuation, firstLine: String?) {
        let reader = self
        Thread.detachNewThread {
            let plainReader = PlainLineReader(notices: reader.notices)
            // libedit is set up only when a line is first read with it (never on a dumb terminal).
            var lineEditor: LineEditor?
            var next = firstLine
            while true {
                if reader.keyMode.isOn {
                    guard reader.keyMode.readKeys(into: inputs, handled: reader.lineDone) else { break }
                    continue
                }
                let editor: any LineReading
                if reader.plainMode.isOn {
                    editor = plainReader
                } else {
                    let made = lineEditor ?? LineEditor(completer: reader.completer, historyPath: reader.historyPath, notices: reader.notices)
                    lineEditor = made
                    editor = made
                }
                guard let line = next ?? editor.readLine(prompt: "abplayer \(reader.location.display)> ") else { break }
                next = nil
                inputs.yield(.line(line))
                reader.lineDone.wait()
            }
            inputs.yield(.endOfInput)
        }
    }
}

/// Where a client REPL's lines come from: the terminal, or a script or pipe.
public enum ReplInput: Sendable {
    case terminal(Completer, historyPath: String?, plainMode: PlainMode)
    case lines(LineSource)

    var isTerminal: Bool {
        if case .terminal = self { true } else { false }
    }
}
