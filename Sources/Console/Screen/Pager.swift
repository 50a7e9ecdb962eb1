import StandardStreams

/// Lines taller than the window shown a window at a time, as `more` shows them: into the
/// scrollback (not on the alternate screen), so what was read stays above the prompt. A prompt
/// line under each window waits for a key: Space the next window, Enter the next line, q (Esc,
/// Ctrl-C) back to the REPL's prompt. Only at a terminal that moves the cursor (`ScreenStyle`).
final class Pager {
    private var remaining: ArraySlice<String>
    private let total: Int
    private let style: ScreenStyle
    /// Raw keys, no echo, while the more prompt waits.
    private let terminal: RawTerminal

    /// Whether `lines` need paging in a window of `rows`: a window holds the more prompt too.
    static func needsPaging(_ lines: [String], rows: Int) -> Bool {
        lines.count > rows - 1
    }

    /// Shows the first window and the more prompt.
    init(lines: [String], style: ScreenStyle) {
        remaining = lines[...]
        total = lines.count
        self.style = style
        terminal = RawTerminal(fullScreen: false)
        show(count: Self.windowRows - 1)
    }

    /// What a key does; false when the pager is done (the caller goes back to the prompt).
    func handle(_ key: Key) -> Bool {
        switch key {
        case .character(" "), .character("f"), .pageDown: show(count: Self.windowRows - 1)
        case .enter, .character("j"), .down: show(count: 1)
        case .character("q"), .escape, .interrupt: remaining = []
        default: return true
        }
        if remaining.isEmpty { close() }
        return !remaining.isEmpty
    }

    /// Erases the more prompt and gives the terminal back as it was.
    func close() {
        guard !terminal.isRestored else { return }
        StandardStream.output.write("\r\u{1B}[K")
        terminal.restore()
    }

    private static var windowRows: Int { max(2, RawTerminal.size.rows) }

    /// The next `count` lines over the more prompt, and the prompt again if lines are left.
    private func show(count: Int) {
        let shown = remaining.prefix(count)
        remaining = remaining.dropFirst(count)
        var text = "\r\u{1B}[K" + shown.map { $0 + "\n" }.joined()
        if !remaining.isEmpty {
            let percent = (total - remaining.count) * 100 / total
            // One line, or erasing it would leave its first half behind.
            let prompt = TextFit.truncate("-- more (\(percent)%): Space next page, Enter next line, q quit --", to: RawTerminal.size.columns - 1)
            text += style.styled(prompt, "7")
        }
        StandardStream.output.write(text)
    }
}
