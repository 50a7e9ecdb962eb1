import ArgumentParser
import Foundation

/// `abplayer --help`: the subcommands, and the options that work with none — the REPL's, since
/// it is the default command (`abplayer --daemon`, `abplayer -c ...`, `--output`, `--library`) —
/// and `--version`. ArgumentParser's own root help lists only `-h`: its options belong to the
/// root command, which has none of its own.
enum TopLevelHelp {
    /// The command lines that ask for this help.
    static func isRequested(by arguments: [String]) -> Bool {
        [["--help"], ["-h"], ["help"]].contains(arguments)
    }

    static var text: String { text(columns: nil) }

    /// The help at `columns` (nil: the terminal's width, 80 off a terminal).
    static func text(columns: Int?) -> String {
        let root = Abplayer.helpMessage(includeHidden: false, columns: columns), repl = Repl.helpMessage(includeHidden: false, columns: columns)
        guard let rootOptions = section("OPTIONS:", in: root), let replOptions = section("OPTIONS:", in: repl),
              let rootUsage = section("USAGE:", in: root), let replUsage = section("USAGE:", in: repl) else { return root }
        let version = "  --version               Show the versions: abplayer, plugin ABI, each plugin."
        var options = repl[replOptions].trimmingCharacters(in: .newlines).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        options.insert(version, at: options.firstIndex { $0.hasPrefix("  -h, --help") } ?? options.endIndex)
        // (Asked of itself, the REPL's help names it without the root: "USAGE: repl ...".)
        let usage = String(repl[replUsage]).replacingOccurrences(of: "USAGE: repl ", with: "USAGE: abplayer ")
            + "\n       abplayer --version\n       abplayer <subcommand>"
        var text = root
        // The later section first: replacing it leaves the earlier one's range valid.
        text.replaceSubrange(rootOptions, with: options.joined(separator: "\n"))
        text.replaceSubrange(rootUsage, with: usage)
        return text
    }

    /// The range of the section that starts with `title` (up to its blank line, not included).
    private static func section(_ title: String, in help: String) -> Range<String.Index>? {
        guard let start = help.range(of: title)?.lowerBound else { return nil }
        let end = help.range(of: "\n\n", range: start..<help.endIndex)?.lowerBound ?? help.endIndex
        return start..<end
    }
}
