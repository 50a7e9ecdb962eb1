import PlayerCore
import CEdit
/// How the screen may draw, from the environment.
///
/// Plain ANSI (ECMA-48) sequences rather than terminfo: the few we use — cursor home, erase to
/// the end of the line/screen, SGR colours and reverse video, xterm's alternate screen (1049) and
/// cursor hiding (25) — are understood by every terminal that claims colour or cursor movement
/// today (xterm and its descendants, VTE, kitty, tmux, screen, the Linux console); the one kind of
/// terminal without them announces itself as TERM=dumb, and gets plain lines instead.
struct ScreenStyle: Equatable, Sendable {
    enum Mode: Equatable, Sendable {
        /// The full screen with colours.
        case color
        /// The full screen, no colour sequence at all (NO_COLOR).
        case monochrome
        /// No full screen: one plain status line per change (TERM=dumb, or not a terminal).
        case plain
    }

    let mode: Mode
    let coverColors: CoverArt.Colors

    init(mode: Mode, coverColors: CoverArt.Colors) {
        self.mode = mode
        self.coverColors = coverColors
    }

    init(environment: [String: String], isTerminal: Bool) {
        let term = environment["TERM"] ?? ""
        if !isTerminal || term.isEmpty || term == "dumb" {
            mode = .plain
        } else if !(environment["NO_COLOR"] ?? "").isEmpty {
            mode = .monochrome
        } else {
            mode = .color
        }
        coverColors = CoverArt.Colors(environment: environment)
    }

    /// `text` in SGR `attributes` (e.g. "1;7;32"), or as it is without colour.
    func styled(_ text: String, _ attributes: String) -> String {
        mode == .color ? "\u{1B}[\(attributes)m\(text)\u{1B}[0m" : text
    }
}

/// The terminal's size in cells.
struct ScreenSize: Equatable, Sendable {
    var columns: Int
    var rows: Int
}

/// Text measured and cut in terminal cells: a wide character (CJK, most emoji) takes two, a
/// combining mark none. The widths come from the C library's `wcwidth` (Unicode's East Asian
/// Width, under the UTF-8 locale the console sets at start).
enum TextFit {
    static func cells(_ character: Character) -> Int {
        let widths = character.unicodeScalars.map { Int(abp_wcwidth($0.value)) }
        // Unknown to the locale (-1): count the character as one cell, as most terminals do.
        return max(1, widths.reduce(0) { $0 + max(0, $1) })
    }

    static func cells(_ text: String) -> Int { text.reduce(0) { $0 + cells($1) } }

    /// Every screen line passes here, so this is where text from files is made visible (a screen
    /// line is one line: a newline in a title shows as `\n`), before it is measured.
    static func truncate(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        let text = TerminalText.visible(text)
        guard cells(text) > width else { return text }
        var kept = ""
        var used = 0
        for character in text {
            let size = cells(character)
            if used + size > width - 1 { break }
            kept.append(character)
            used += size
        }
        return kept + "…"
    }

    /// `text` fitted to exactly `width` cells: cut as `truncate` does, then spaces after it (the
    /// columns of a list line up).
    static func padded(_ text: String, to width: Int) -> String {
        let fitted = truncate(text, to: width)
        return fitted + String(repeating: " ", count: max(0, width - cells(fitted)))
    }

    /// `pieces` joined by `separator` into lines of at most `width` cells, breaking only between
    /// pieces (a piece wider than `width` is a line of its own): help text by words, the player
    /// screen's keys by key.
    static func wrap(_ pieces: [String], separator: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for piece in pieces {
            if line.isEmpty {
                line = piece
            } else if cells(line) + cells(separator) + cells(piece) <= width {
                line += separator + piece
            } else {
                lines.append(line)
                line = piece
            }
        }
        return lines + (line.isEmpty ? [] : [line])
    }

    /// A bar of `width` cells, `share` (0...1) of it filled.
    static func bar(_ share: Double?, width: Int, ascii: Bool) -> String {
        guard width > 0 else { return "" }
        let filled = Int(saturating: (min(1, max(0, share ?? 0)) * Double(width)).rounded(.down))
        return String(repeating: ascii ? "#" : "█", count: filled)
            + String(repeating: ascii ? "-" : "░", count: width - filled)
    }
}
