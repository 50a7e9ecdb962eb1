import Foundation
import StandardStreams

/// The terminal while a full screen shows: raw mode (keys arrive one by one, not echoed), the
/// alternate screen buffer and a hidden cursor. `restore()` puts everything back, so the REPL's
/// prompt reappears over the scrollback as it was. ISIG is off too: Ctrl-C comes as a key (ETX),
/// which goes back to the prompt like q, rather than as a SIGINT that quits the player and stops
/// the book (a listener reaching for Ctrl-C on a screen means "get me out of this screen").
final class RawTerminal {
    private let saved: termios?
    /// False for the pager, which writes into the scrollback below the prompt: keys only.
    private let fullScreen: Bool
    private(set) var isRestored = false

    init(fullScreen: Bool = true) {
        self.fullScreen = fullScreen
        var settings = termios()
        saved = tcgetattr(STDIN_FILENO, &settings) == 0 ? settings : nil
        if var raw = saved {
            raw.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN | ISIG)
            raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
            // Bytes as they come: one at least, no timer.
            withUnsafeMutableBytes(of: &raw.c_cc) { cc in
                cc[Int(VMIN)] = 1
                cc[Int(VTIME)] = 0
            }
            tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        }
        if fullScreen { Self.write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J") }
    }

    func restore() {
        guard !isRestored else { return }
        isRestored = true
        // (No SGR reset: leaving the alternate screen restores the attributes saved on entering
        // it, and NO_COLOR asks for no such sequence at all.)
        if fullScreen { Self.write("\u{1B}[?25h\u{1B}[?1049l") }
        if var settings = saved { tcsetattr(STDIN_FILENO, TCSANOW, &settings) }
    }

    deinit { restore() }

    /// Replaces the screen's content with `lines` (each already fitted to the width): home, each
    /// line then erase to its end, erase below. No clear first, so nothing flickers.
    func draw(_ lines: [String]) {
        Self.write("\u{1B}[H" + lines.joined(separator: "\u{1B}[K\r\n") + "\u{1B}[K\u{1B}[J")
    }

    /// Clears the window and puts the cursor at its top left (what `clear` does, the scrollback
    /// kept). Only for a terminal `ScreenStyle` says moves the cursor.
    static func clear() {
        write("\u{1B}[H\u{1B}[2J")
    }

    /// The window's size; 80x24 when the terminal does not say.
    static var size: ScreenSize {
        var window = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else {
            return ScreenSize(columns: 80, rows: 24)
        }
        return ScreenSize(columns: Int(window.ws_col), rows: Int(window.ws_row))
    }

    static func write(_ text: String) {
        StandardStream.output.write(text)
    }
}
