import Foundation
import StandardStreams

/// Reads the REPL's lines on a terminal that cannot move the cursor (TERM=dumb: a screen reader's
/// console, Emacs' shell): the terminal's own line editing (Backspace, Ctrl-U, Ctrl-W) in its
/// cooked mode, not libedit, whose redraws (a CR and the prompt again at every Backspace or
/// history key) a speech synthesizer reads out and a braille line shows as junk. Nothing here
/// writes a CR or an escape sequence: output only ever appends whole lines. No Tab completion
/// or history (they need redraws); notices come on lines of their own.
final class PlainLineReader: LineReading {
    let notices: Notices
    /// Bytes read past the end of the line returned (a paste of several lines).
    private var pending: [UInt8] = []

    init(notices: Notices) { self.notices = notices }

    func readLine(prompt: String) -> String? {
        StandardStream.output.write(prompt)
        notices.setEditing(true)
        defer { notices.setEditing(false) }
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            var waiting = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: notices.wakeRead, events: Int16(POLLIN), revents: 0)]
            if poll(&waiting, 2, -1) < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if waiting[1].revents != 0 { showNotices(prompt: prompt) }
            if waiting[0].revents != 0 {
                var bytes = [UInt8](repeating: 0, count: 4096)
                let count = read(STDIN_FILENO, &bytes, bytes.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else {
                    // The end of input (Ctrl-D): a line typed without its Enter still counts.
                    guard !pending.isEmpty else { return nil }
                    defer { pending = [] }
                    return String(decoding: pending, as: UTF8.self)
                }
                pending += bytes[..<count]
            }
        }
    }

    /// Notices on lines of their own, then the prompt again. What was typed stays in the
    /// terminal's line buffer (Ctrl-R shows it again); it is not drawn here, which would take a CR.
    private func showNotices(prompt: String) {
        let messages = notices.take()
        var text = messages.isEmpty ? "" : "\n" + messages.joined(separator: "\n") + "\n"
        // Ctrl-C came as SIGINT: the terminal dropped the line being typed.
        if notices.takeInterrupt() { text += "\n(Ctrl-D or 'quit' leaves; the place is saved either way)\n" }
        guard !text.isEmpty else { return }
        StandardStream.output.write(text + prompt)
    }
}

/// Where the REPL's terminal lines come from: libedit (`LineEditor`), or the terminal's own
/// editing when it cannot move the cursor (`PlainLineReader`).
protocol LineReading: AnyObject {
    /// Shows `prompt` and reads a line; nil at the end of input (Ctrl-D).
    func readLine(prompt: String) -> String?
}
