/// What `help` says about each command: the one source of its usage, its summary, its topic, the
/// other names the parser takes for it and the actions a second word names (`bookmark note`).
/// Also the names tab completion offers and the words `abplayer COMMAND` runs as a REPL line.
public struct CommandHelp: Equatable, Sendable {
    /// A form of a command named by its second word: `bookmark note`, `sync status`, `chapter add`.
    public struct Action: Equatable, Sendable {
        public let name: String
        public let usage: String
        public let summary: String
    }

    public let name: String
    public let topic: HelpTopic
    public let usage: String
    public let summary: String
    /// Other words the parser takes for the command (`q` and `exit` for `quit`).
    public let aliases: [String]
    public let actions: [Action]

    init(name: String, topic: HelpTopic, usage: String, summary: String, aliases: [String] = [], actions: [Action] = []) {
        self.name = name
        self.topic = topic
        self.usage = usage
        self.summary = summary
        self.aliases = aliases
        self.actions = actions
    }

    /// Every command, each once; `help all` lists them by topic in this order.
    public static let all: [CommandHelp] = general + library + playback + ScreenCommand.help

    /// The command `name` is (a name or an alias; `-`, `+90` and `-5m` are `+`), if any.
    public static func named(_ name: String) -> CommandHelp? {
        let key = name.first == "+" || name.first == "-" ? "+" : name
        return all.first { $0.name == key || $0.aliases.contains(key) }
    }

    /// The action of this command that `word` names, if any.
    func action(_ word: String) -> Action? {
        actions.first { $0.name == word }
    }

    /// What a parser refusing the words of `command`'s `action` says: the action's usage as help
    /// gives it (without an action: every action's, `shelf new PATH | rename PATH NAME | ...`).
    static func usageError(_ command: String, action: String? = nil) -> CommandError {
        guard let entry = named(command) else { return CommandError("usage: \(command)") }
        guard let action else {
            let forms = entry.actions.map { $0.usage.hasPrefix(command + " ") ? String($0.usage.dropFirst(command.count + 1)) : $0.usage }
            return CommandError("usage: \(command) " + forms.joined(separator: " | "))
        }
        return CommandError("usage: " + (entry.action(action)?.usage ?? "\(command) \(action)"))
    }

    /// The commands a new listener needs first, shown under the topics by plain `help`.
    static let firstCommands = ["ls", "play", "pause", "+", "bookmark", "help", "quit"]

    private static let general: [CommandHelp] = [
        CommandHelp(name: "help", topic: .screens, usage: "help [TOPIC | COMMAND | all]",
                    summary: "this overview, a topic, a command or an action, or all", aliases: ["?"]),
        CommandHelp(name: "ls", topic: .library, usage: "ls", summary: "the shelves and books here, with author, duration and progress"),
        CommandHelp(name: "cd", topic: .library, usage: "cd SHELF | .. | /", summary: "go into a shelf, up one, or to the top"),
        CommandHelp(name: "tree", topic: .library, usage: "tree", summary: "every shelf, indented"),
        CommandHelp(name: "find", topic: .library, usage: "find TEXT", summary: "books whose title, author or narrator contains TEXT"),
        CommandHelp(name: "play", topic: .playback, usage: "play [BOOK | ITEM]", summary: "play a book from where it was, an item of the current book from its start, or resume"),
        CommandHelp(name: "resume", topic: .playback, usage: "resume", summary: "play on from the place paused at ('play' alone does the same)"),
        CommandHelp(name: "pause", topic: .playback, usage: "pause", summary: "pause (Enter on an empty line toggles); 'resume' plays on"),
        CommandHelp(name: "stop", topic: .playback, usage: "stop", summary: "stop the book, its place saved ('play' starts it again there; 'abplayer play' and 'listen' end)"),
        CommandHelp(name: "toggle", topic: .playback, usage: "toggle", summary: "play if paused, pause if playing"),
        CommandHelp(name: "+", topic: .playback, usage: "+[N] | -[N]", summary: "forward or back N (90, 1:30, 5m, 1h30m; default: the book's skip interval)"),
        CommandHelp(name: "seek", topic: .playback, usage: "seek 1:02:03 | +90 | -5m | 50%", summary: "go to a time in the book, by an amount, or to a share of it"),
        CommandHelp(name: "goto", topic: .playback, usage: "goto ITEM [mm:ss] | bookmark N", summary: "go to an item (number or title) of the book, at a time in it; goto bookmark N is jump N"),
        CommandHelp(name: "next", topic: .playback, usage: "next", summary: "the next item"),
        CommandHelp(name: "prev", topic: .playback, usage: "prev", summary: "the start of this item, or the previous one when at its start"),
        CommandHelp(name: "undo", topic: .playback, usage: "undo", summary: "back to where you were before the last jump"),
        CommandHelp(name: "status", topic: .playback, usage: "status [--json]", summary: "book, item, chapter, times, speed, volume, output, the loudness gain, state; whether speed and skip are the book's own or the default"),
        CommandHelp(name: "quit", topic: .playback, usage: "quit", summary: "save the position and leave (q and exit too; Ctrl-D)", aliases: ["exit", "q"]),
        CommandHelp(name: "chapter", topic: .chapters, usage: "chapter next | prev | N | NAME | add [TIME] TITLE | rename N TITLE | rm N",
                    summary: "go to the next or previous chapter, chapter N, or the one whose title has NAME in it (a file of a book of many files is a chapter); add, rename or remove chapters of your own",
                    actions: [
                        Action(name: "add", usage: "chapter add [TIME] TITLE",
                               summary: "add a chapter of your own at TIME in the book (none: the place heard); your chapters replace the files' (the files are never written)"),
                        Action(name: "rename", usage: "chapter rename N TITLE", summary: "rename chapter N, as 'chapters' numbers them"),
                        Action(name: "rm", usage: "chapter rm N", summary: "remove chapter N, as 'chapters' numbers them"),
                    ]),
        CommandHelp(name: "chapters", topic: .chapters, usage: ChapterLine.listUsage,
                    summary: "the chapters of the book playing, or of BOOK: where each starts, how long it is, and the one you are in; reset: drop your chapters; detect: find them from silences",
                    actions: [
                        Action(name: "reset", usage: "chapters reset [BOOK]", summary: "drop your own chapters for the files' (of the book playing, or of BOOK)"),
                        Action(name: "detect", usage: "chapters detect [MIN_SILENCE] [--yes] [BOOK]",
                               summary: "propose a chapter after each silence of at least MIN_SILENCE (2 s) and ask before storing them (--yes: without asking)"),
                    ]),
        CommandHelp(name: "bookmark", topic: .bookmarks, usage: "bookmark [NOTE] | rm N | note N [TEXT]",
                    summary: "bookmark the place heard; the note is the rest of the line (in a script a ; ends it unless quoted)",
                    actions: [
                        Action(name: "--", usage: "bookmark -- NOTE", summary: "a note that starts like 'rm N' or 'note N' (quoted does it too): bookmark -- rm 3 times"),
                        Action(name: "rm", usage: "bookmark rm N", summary: "remove bookmark N, as 'bookmarks' numbers them (those after it move up a number; aN: an automatic one, as 'bookmarks --all' numbers them)"),
                        Action(name: "note", usage: "bookmark note N [TEXT]", summary: "replace the note of bookmark N (as 'bookmarks' numbers them) with TEXT (none: the note is removed)"),
                    ]),
        CommandHelp(name: "bookmarks", topic: .bookmarks, usage: "bookmarks [--all] [BOOK] | export ... | import ...",
                    summary: "the bookmarks of the book playing, or of BOOK, in the book's order and numbered so, the same on every computer: number, time, chapter, kind, note; --all: the automatic ones too (left before a seek, a jump...), numbered a1, a2...; export and import: to and from a file",
                    actions: [
                        Action(name: "export", usage: "bookmarks export [BOOK] [--format csv|json|audacity|chapters] [--all] FILE",
                               summary: "write the bookmarks of the book playing, or of BOOK, to FILE (-: shown here), the format from --format or FILE's name (.csv, .json, chapters.txt, .txt: Audacity labels): each with its time in the book and (csv, json) its file and time in it; Audacity's labels are in the book's time (its files joined); in Audacity's and chapters.txt a note's tabs and line breaks become spaces"),
                        Action(name: "import", usage: "bookmarks import [BOOK] [--format csv|json|audacity|chapters] FILE",
                               summary: "make bookmarks of the book playing, or of BOOK, from FILE as export writes it (or Audacity's labels, a chapters.txt): placed by file and time in it, else by the book's time; those already there (same place, same note) are passed over, lines that cannot be read named"),
                    ]),
        CommandHelp(name: "jump", topic: .bookmarks, usage: "jump N", summary: "go to bookmark N of the book playing, N as 'bookmarks' lists them (aN: an automatic one, as 'bookmarks --all' does; goto bookmark N too); 'undo' comes back"),
        CommandHelp(name: "speed", topic: .settings, usage: "speed 0.5-4.0 | +N | -N | default",
                    summary: "the book's playback speed; +0.1 or -0.1 steps it (stopping at the ends); default: follow 'set speed' again"),
        CommandHelp(name: "volume", topic: .settings, usage: "volume 0-150 | +N | -N", summary: "the book's volume in percent; +5 or -5 steps it (stopping at the ends)"),
        CommandHelp(name: "silence", topic: .settings, usage: "silence [skip on | off | MS | default]",
                    summary: "skip silence for this book: silences of MS milliseconds or more (600 with on) are shortened to a short pause; default: follow 'set silence' again; alone: the setting and the time it saved"),
        CommandHelp(name: "intro", topic: .settings, usage: "intro [T | off | default]",
                    summary: "leave out the first T (up to 10m) of every file of this book: a repeated intro; a seek into it lands at its end; off: none; default: follow 'set intro' again; alone: the setting and the time left out so far"),
        CommandHelp(name: "outro", topic: .settings, usage: "outro [T | off | default]",
                    summary: "leave out the last T (up to 10m) of every file of this book: repeated credits; a seek into them goes on to the next file; off: none; default: follow 'set outro' again; alone: the setting and the time left out so far"),
        CommandHelp(name: "loudness", topic: .settings, usage: LoudnessLine.usage, summary: "even out the book's loudness (EBU R128, measured once in the background and kept in the library) toward 'set loudness-target' (-18 LUFS): on, off, or follow 'set loudness'; measure: measure a book again now"),
        CommandHelp(name: "output", topic: .settings, usage: "output ID[:ARG][,key=value...]", summary: "play through another output plugin from the place heard (Tab lists them; abplayer plugins ID shows its options)"),
        CommandHelp(name: "set", topic: .settings, usage: DefaultsLine.usage,
                    summary: "defaults for books with no setting of their own, kept in the library: speed (0.5-4.0), skip (what + and - skip), rewind (auto-rewind's most, or off), sleep (a sleep timer armed when a book starts), silence (skip silence: on, off or the shortest silence in ms), loudness (on or off: books evened out), loudness-target (-30 to -10 LUFS, -18 when not set), intro and outro (the time left out at the start and the end of every file, or off) and plain (on: the REPL's terminal speaks in whole lines for screen readers, as --plain does, from the next line); default or unset NAME clears one; 'set' lists them"),
        CommandHelp(name: "unset", topic: .settings, usage: "unset NAME", summary: "clear the default NAME, as 'set NAME default' does"),
    ]
}
