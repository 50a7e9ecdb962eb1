/// Text from files (tags, chapter titles, file names, box names in error reasons) made safe to
/// write to a terminal. A title tag can hold `ESC]0;…BEL` (which retitles the window), `ESC[2J`
/// (which clears the screen), a C1 CSI (U+009B, an escape on terminals that take 8-bit controls),
/// a right-to-left override that makes "gpj.mp3" read "3pm.jpg", or a newline that forges a second
/// line of output. None of that may reach the terminal as itself.
///
/// The scheme, one for every text view (the subcommands, the REPL, the full screens, errors):
///
/// - ESC is shown as `\e`, newline `\n`, carriage return `\r`, tab `\t`;
/// - the other C0 controls (U+0000–U+001F) and DEL as `\xHH`, e.g. BEL as `\x07`;
/// - C1 controls (U+0080–U+009F), the bidi embeddings, overrides and isolates (U+202A–U+202E,
///   U+2066–U+2069) and the line and paragraph separators (U+2028, U+2029) as `\uHHHH`.
///
/// Everything shown is plain ASCII (it reads in any font, a cell per character), so text is
/// measured after it is made visible. The visible form is for people: it is not reversible (a
/// backslash in a title stays as it is). Scripts that need the exact strings use `--json`, whose
/// escaping already keeps them harmless; JSON and the control socket's replies never pass here.
public enum TerminalText {
    /// `text` on one line: every control character, newlines included, shown visibly.
    public static func visible(_ text: String) -> String { escaped(text, keeping: []) }

    /// Text of several lines laid out by abplayer itself (a status report, a tab-separated
    /// list): its newlines and tabs stay, everything else is as in `visible`. The fields from
    /// files inside it should have gone through `visible` first, or a newline in a title would
    /// still break its line (harmlessly: no escape sequence gets through either way).
    public static func lines(_ text: String) -> String { escaped(text, keeping: ["\n", "\t"]) }

    private static func escaped(_ text: String, keeping kept: Set<Unicode.Scalar>) -> String {
        // Nearly every string is clean: hand it back without copying.
        guard text.unicodeScalars.contains(where: { needsEscape($0) && !kept.contains($0) }) else { return text }
        var shown = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar), !kept.contains(scalar) else {
                shown.append(scalar)
                continue
            }
            shown.append(contentsOf: escape(scalar).unicodeScalars)
        }
        return String(shown)
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    private static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x1B: return "\\e"
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x09: return "\\t"
        case 0x00...0x1F, 0x7F: return "\\x" + hex(scalar.value, digits: 2)
        default: return "\\u" + hex(scalar.value, digits: 4)
        }
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
