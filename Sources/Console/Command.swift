public import Library
public import Player
public import PlayerCore

/// One thing the user asked the REPL to do, parsed and checked.
public enum Command: Equatable, Sendable {
    case help(topic: String?)
    case list
    case changeShelf(String)
    case tree
    case find(String)
    case play(String?)
    /// `stop`: the book stopped and unloaded, its place saved (MPD's and mpc's stop).
    case stop
    case pause
    case toggle
    /// `+N`/`-N`; nil seconds: the book's skip interval.
    case skip(forward: Bool, seconds: Double?)
    case seek(SeekTarget)
    case goto(item: String, seconds: Double?)
    case nextItem
    case previousItem
    case chapter(ChapterTarget)
    /// nil: the book loaded.
    case chapters(book: String?)
    /// The listener's own chapters: `chapter add/rename/rm`, `chapters reset/detect`.
    case chapterLine(ChapterLine)
    case undo
    case bookmark(note: String?)
    /// The book loaded's bookmarks; `all`: the automatic ones too.
    case bookmarks(all: Bool)
    /// `jump N` (and its alias `goto bookmark N`): bookmark N of the book loaded.
    case jumpToBookmark(BookmarkNumber)
    case removeBookmark(BookmarkNumber)
    /// `bookmark note N [TEXT]`; no text: the note is removed.
    case noteBookmark(BookmarkNumber, note: String?)
    /// `set [NAME [VALUE | default]]`, `unset NAME`: the listener's defaults.
    case defaults(DefaultsCommand)
    /// `speed default`: the book loaded follows the listener's default speed again.
    case useDefault(ListenerSetting)
    case speed(Double)
    case volume(Double)
    /// `speed +0.1`, `volume -5`: steps that stop at the ends of the range.
    case stepSpeed(Double)
    case stepVolume(Double)
    /// `silence [skip on|off|MS]`: skip silence for the book loaded; nil: show it.
    case skipSilence(SkipSilence?)
    case output(String)
    case status(json: Bool)
    case quit
    case library(LibraryCommand)
    case sleep(SleepCommand)
    case queue(QueueLine)
    case playbackMode(PlaybackModeCommand)
    case screen(ScreenCommand)
    case sync(SyncRequest)
    case loudness(LoudnessLine)
}

/// A command the parser refused: one line saying what was wrong and what is right.
public struct CommandError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// What `help` says about each command; also the names tab completion offers.
public struct CommandHelp: Sendable {
    public let name: String
    public let usage: String
    public let summary: String

    public static let all: [CommandHelp] = [
        CommandHelp(name: "help", usage: "help [COMMAND]", summary: "list the commands, or explain one"),
        CommandHelp(name: "ls", usage: "ls", summary: "the shelves and books here, with author, duration and progress"),
        CommandHelp(name: "cd", usage: "cd SHELF | .. | /", summary: "go into a shelf, up one, or to the top"),
        CommandHelp(name: "tree", usage: "tree", summary: "every shelf, indented"),
        CommandHelp(name: "find", usage: "find TEXT", summary: "books whose title, author or narrator contains TEXT"),
        CommandHelp(name: "play", usage: "play [BOOK | ITEM]", summary: "play a book from where it was, an item of the current book from its start, or resume"),
        CommandHelp(name: "pause", usage: "pause", summary: "pause (an empty line toggles play/pause); 'resume' plays on"),
        CommandHelp(name: "stop", usage: "stop", summary: "stop the book, its place saved ('play' starts it again there; 'abplayer play' and 'listen' end)"),
        CommandHelp(name: "toggle", usage: "toggle", summary: "play if paused, pause if playing"),
        CommandHelp(name: "+", usage: "+[N] | -[N]", summary: "forward or back N (90, 1:30, 5m, 1h30m; default: the book's skip interval)"),
        CommandHelp(name: "seek", usage: "seek 1:02:03 | +90 | -5m | 50%", summary: "go to a time in the book, by an amount, or to a share of it"),
        CommandHelp(name: "goto", usage: "goto ITEM [mm:ss] | bookmark N", summary: "go to an item (number or title) of the book, at a time in it; goto bookmark N is jump N"),
        CommandHelp(name: "next", usage: "next", summary: "the next item"),
        CommandHelp(name: "prev", usage: "prev", summary: "the start of this item, or the previous one when at its start"),
        CommandHelp(name: "chapter", usage: "chapter next | prev | N | NAME | add [TIME] TITLE | rename N TITLE | rm N",
                    summary: "go to the next or previous chapter, chapter N, or the one whose title has NAME in it (a file of a book of many files is a chapter); add a chapter of your own at TIME in the book (none: here), rename or remove one: your chapters replace the files' (the files are never written)"),
        CommandHelp(name: "chapters", usage: ChapterLine.listUsage,
                    summary: "the chapters of the book playing, or of BOOK: where each starts, how long it is, and the one you are in; reset: drop your chapters for the files'; detect: propose a chapter after each silence of at least MIN_SILENCE (2 s) and ask before storing them (--yes: without asking)"),
        CommandHelp(name: "undo", usage: "undo", summary: "back to where you were before the last jump"),
        CommandHelp(name: "bookmark", usage: "bookmark [NOTE] | rm N | note N [TEXT]",
                    summary: "bookmark the place being heard (the note is the rest of the line as typed), remove bookmark N (those after it move up a number), or replace its note (none: removed); N as 'bookmarks' numbers them, aN an automatic one as 'bookmarks --all' does; a note that starts with 'rm N' or 'note N' is quoted or written after --: bookmark -- rm 3 times"),
        CommandHelp(name: "bookmarks", usage: "bookmarks [--all] [BOOK]", summary: "the bookmarks of the book playing, or of BOOK, in the book's order and numbered so, the same on every computer: number, time, chapter, kind, note; --all: the automatic ones too (left before a seek, a jump...), numbered a1, a2..."),
        CommandHelp(name: "jump", usage: "jump N", summary: "go to bookmark N of the book playing, N as 'bookmarks' lists them (aN: an automatic one, as 'bookmarks --all' does; goto bookmark N too); 'undo' comes back"),
        CommandHelp(name: "speed", usage: "speed 0.5-4.0 | +N | -N | default",
                    summary: "the book's playback speed; +0.1 or -0.1 steps it (stopping at the ends); default: follow 'set speed' again"),
        CommandHelp(name: "volume", usage: "volume 0-150 | +N | -N", summary: "the book's volume in percent; +5 or -5 steps it (stopping at the ends)"),
        CommandHelp(name: "silence", usage: "silence [skip on | off | MS | default]",
                    summary: "skip silence for this book: silences of MS milliseconds or more (600 with on) are shortened to a short pause; default: follow 'set silence' again; alone: the setting and the time it saved"),
        CommandHelp(name: "loudness", usage: LoudnessLine.usage, summary: "even out the book's loudness (EBU R128, measured once in the background and kept in the library) toward 'set loudness-target' (-18 LUFS): on, off, or follow 'set loudness'; measure: measure a book again now"),
        CommandHelp(name: "output", usage: "output ID[:ARG][,key=value...]", summary: "play through another output plugin from the place heard (Tab lists them; abplayer plugins ID shows its options)"),
        CommandHelp(name: "status", usage: "status [--json]", summary: "book, item, chapter, times, speed, volume, output, the loudness gain, state; whether speed and skip are the book's own or the default"),
        CommandHelp(name: "set", usage: DefaultsLine.usage,
                    summary: "defaults for books with no setting of their own, kept in the library: speed (0.5-4.0), skip (what + and - skip), rewind (auto-rewind's most, or off), sleep (a sleep timer armed when a book starts), silence (skip silence: on, off or the shortest silence in ms), loudness (on or off: books evened out) and loudness-target (-30 to -10 LUFS, -18 when not set); default or unset NAME clears one; 'set' lists them"),
        CommandHelp(name: "quit", usage: "quit", summary: "save the position and leave (q and exit too; Ctrl-D)"),
    ] + library + playback + ScreenCommand.help

    /// The help table: usages in a column, summaries beside them. On a terminal (`columns`
    /// given) summaries wrap at word boundaries under their own column, or, in a window too
    /// narrow for two columns, go on indented lines below their usage; a script gets one line
    /// per command.
    static func lines(_ entries: [CommandHelp], columns: Int?) -> [String] {
        let usageWidth = (entries.map(\.usage.count).max() ?? 0) + 2
        guard let columns else {
            return entries.map { $0.usage.padding(toLength: usageWidth, withPad: " ", startingAt: 0) + $0.summary }
        }
        let besideUsage = columns - usageWidth >= 30
        let indent = besideUsage ? usageWidth : 4
        var lines: [String] = []
        for entry in entries {
            let wrapped = wrap(entry.summary, width: max(20, columns - indent - 1))
            if besideUsage {
                lines.append(entry.usage.padding(toLength: usageWidth, withPad: " ", startingAt: 0) + (wrapped.first ?? ""))
                lines += wrapped.dropFirst().map { String(repeating: " ", count: indent) + $0 }
            } else {
                lines += wrap(entry.usage, width: columns)
                lines += wrapped.map { String(repeating: " ", count: indent) + $0 }
            }
        }
        return lines
    }

    /// `text` in lines of at most `width` cells, broken between words.
    static func wrap(_ text: String, width: Int) -> [String] {
        TextFit.wrap(text.split(separator: " ").map(String.init), separator: " ", width: width)
    }

    public static func named(_ name: String) -> CommandHelp? {
        let key = name == "-" || name.first == "+" || name.first == "-" ? "+" : name
        return all.first { $0.name == key || ($0.name == "quit" && (key == "exit" || key == "q")) }
    }
}

extension Command {
    /// Parses one command's words (as the tokenizer gave them).
    public init(words: [String]) throws(CommandError) {
        guard let name = words.first else { throw CommandError("empty command") }
        let arguments = Array(words.dropFirst())
        let rest: String? = arguments.isEmpty ? nil : arguments.joined(separator: " ")
        func usage() -> CommandError {
            CommandError("usage: \(CommandHelp.named(name)?.usage ?? name)")
        }
        func noArguments(_ command: Command) throws(CommandError) -> Command {
            guard arguments.isEmpty else { throw CommandError("\(name) takes no arguments") }
            return command
        }

        if let sign = name.first, sign == "+" || sign == "-" {
            let amount = String(name.dropFirst())
            guard arguments.isEmpty else { throw CommandError("usage: +N or -N, e.g. +30, -1:30, +5m (no space after the sign)") }
            if amount.isEmpty { self = .skip(forward: sign == "+", seconds: nil); return }
            guard let seconds = Timecode.seconds(from: amount) else {
                throw CommandError("'\(name)' is not an amount of time: use +N or -N, N as \(Timecode.forms) (0 or more)")
            }
            self = .skip(forward: sign == "+", seconds: seconds)
            return
        }
        switch name {
        case "help", "?":
            guard arguments.count <= 1 else { throw usage() }
            if let topic = arguments.first, CommandHelp.named(topic) == nil {
                throw CommandError("help: no command '\(topic)'; 'help' lists them")
            }
            self = .help(topic: arguments.first)
        case "ls": self = try noArguments(.list)
        case "cd": self = .changeShelf(rest ?? "/")
        case "tree": self = try noArguments(.tree)
        case "find":
            guard let rest else { throw usage() }
            self = .find(rest)
        case "play": self = .play(rest)
        case "resume": self = try noArguments(.play(nil))
        case "stop": self = try noArguments(.stop)
        case "pause": self = try noArguments(.pause)
        case "toggle": self = try noArguments(.toggle)
        case "seek":
            guard arguments.count == 1 else { throw usage() }
            guard let target = TimeArgument.seekTarget(arguments[0]) else {
                throw CommandError("seek: '\(arguments[0])' is not a time: \(TimeArgument.seekForms)")
            }
            self = .seek(target)
        case "goto":
            guard !arguments.isEmpty else { throw usage() }
            // `goto bookmark N`: the alias of `jump N` (an item titled "bookmark 3" is `goto "bookmark 3"`).
            if arguments.count == 2, arguments[0] == "bookmark" {
                self = .jumpToBookmark(try Self.bookmarkNumber(arguments[1], in: "goto bookmark"))
                return
            }
            // A bare last number stays in the item's name: the console decides with the titles.
            if arguments.count > 1, ItemReference.looksLikeTime(arguments.last!),
               let seconds = Timecode.seconds(from: arguments.last!) {
                self = .goto(item: arguments.dropLast().joined(separator: " "), seconds: seconds)
            } else {
                self = .goto(item: rest!, seconds: nil)
            }
        case "next": self = try noArguments(.nextItem)
        case "prev": self = try noArguments(.previousItem)
        case "chapter":
            guard let rest else { throw usage() }
            if let line = try ChapterLine.edit(arguments) { self = .chapterLine(line); return }
            switch rest {
            case "next", "+": self = .chapter(.next)
            case "prev", "-": self = .chapter(.previous)
            case let text:
                if let number = Int(text) {
                    guard number >= 1 else { throw CommandError("chapter: chapters are numbered from 1; use next, prev, a name or a number") }
                    self = .chapter(.number(number))
                } else {
                    self = .chapter(.named(text))
                }
            }
        case "chapters": self = try ChapterLine.list(arguments).map { .chapterLine($0) } ?? .chapters(book: rest)
        case "undo": self = try noArguments(.undo)
        case "bookmark":
            // `Tokenizer.bookmarkWithNote` gives a note as one word, so `bookmark rm 3 times` is
            // ["bookmark", "rm 3 times"]: a note. The commands are their own words.
            if arguments.count == 2, arguments[0] == "rm", let number = BookmarkNumber(arguments[1]) {
                self = .removeBookmark(number)
            } else if arguments.count >= 2, arguments[0] == "note", let number = BookmarkNumber(arguments[1]) {
                self = .noteBookmark(number, note: arguments.count > 2 ? arguments.dropFirst(2).joined(separator: " ") : nil)
            } else if arguments.first == "--" {
                self = .bookmark(note: arguments.count > 1 ? arguments.dropFirst().joined(separator: " ") : nil)
            } else if let misspelt = Self.misspeltBookmarkCommand(rest ?? "") {
                throw misspelt
            } else {
                self = .bookmark(note: rest)
            }
        case _ where LibraryCommand.names.contains(name) || name == "bookmarks" && arguments.contains(where: { $0 != "--all" }):
            self = .library(try LibraryCommand(name: name, arguments: arguments))
        case "bookmarks":
            guard arguments.count <= 1 else { throw usage() }
            self = .bookmarks(all: arguments == ["--all"])
        case "jump":
            guard arguments.count == 1 else { throw usage() }
            self = .jumpToBookmark(try Self.bookmarkNumber(arguments[0], in: "jump"))
        case "set": self = .defaults(try DefaultsLine.parse(arguments))
        case "unset":
            guard arguments.count == 1 else { throw CommandError("usage: unset speed | skip | rewind | sleep | silence | loudness | loudness-target") }
            self = .defaults(try DefaultsLine.parse([arguments[0], "default"]))
        case "speed":
            guard arguments.count == 1 else { throw usage() }
            if arguments[0] == "default" { self = .useDefault(.speed); return }
            do {
                if let step = try SettingText.step(arguments[0], in: SettingText.speedRange, unit: "x") {
                    self = .stepSpeed(step)
                    return
                }
                self = .speed(try SettingText.speed(arguments[0]))
            } catch {
                throw CommandError("speed: \(error)")
            }
        case "silence":
            if arguments.isEmpty { self = .skipSilence(nil); return }
            guard arguments.count == 2, arguments[0] == "skip" else { throw usage() }
            if arguments[1] == "default" { self = .useDefault(.silence); return }
            do {
                self = .skipSilence(try SkipSilenceText.parse(arguments[1]))
            } catch {
                throw CommandError("silence skip: \(error)")
            }
        case "volume":
            guard arguments.count == 1 else { throw usage() }
            do {
                if let step = try SettingText.step(arguments[0], in: SettingText.volumeRange, unit: "%") {
                    self = .stepVolume(step)
                    return
                }
                self = .volume(try SettingText.volume(arguments[0]))
            } catch {
                throw CommandError("volume: \(error)")
            }
        case "output":
            guard arguments.count == 1 else { throw usage() }
            self = .output(arguments[0])
        case "status":
            switch arguments {
            case []: self = .status(json: false)
            case ["--json"]: self = .status(json: true)
            default: throw CommandError("usage: status [--json]")
            }
        case "quit", "exit", "q": self = try noArguments(.quit)
        case "sleep": self = .sleep(try SleepCommand(arguments: arguments))
        case "queue": self = .queue(try QueueLine(arguments: arguments))
        case "repeat", "shuffle", "rewind": self = .playbackMode(try PlaybackModeCommand(name: name, arguments: arguments))
        case "loudness": self = .loudness(try LoudnessLine(arguments: arguments))
        case "now", "art", "library", "clear": self = .screen(try ScreenCommand(name: name, arguments: arguments))
        case "sync": self = .sync(try SyncLine.parse(arguments))
        default:
            if let near = Suggestion.nearest(to: name, among: CommandHelp.all.map(\.name) + ["exit", "unset"]) {
                throw CommandError("unknown command '\(name)': did you mean '\(near)'? ('help' lists the commands)")
            }
            throw CommandError("unknown command '\(name)': 'help' lists the commands")
        }
    }
}

extension Command {
    /// Words a listener reaches for to edit a bookmark, and the command that does it.
    private static let bookmarkEdits = ["rename": "note", "edit": "note", "notes": "note", "name": "note",
                                        "remove": "rm", "delete": "rm", "del": "rm", "jump": "jump", "goto": "jump"]

    /// `bookmark rename 2 foo` would be a bookmark whose note is "rename 2 foo": it looks like a
    /// misspelt command (a word for an edit, then a bookmark number), so it is asked about.
    static func misspeltBookmarkCommand(_ note: String) -> CommandError? {
        let words = note.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard words.count >= 2, let meant = bookmarkEdits[words[0].lowercased()], (try? bookmarkNumber(words[1], in: "bookmark")) != nil else {
            return nil
        }
        let rest = words.dropFirst(2).joined(separator: " ")
        let suggestion = meant == "jump" ? "jump \(words[1])" : "bookmark \(meant) \(words[1])" + (rest.isEmpty || meant == "rm" ? "" : " \(rest)")
        return CommandError("bookmark: did you mean '\(suggestion)'? (a bookmark with that note: 'bookmark -- \(note)')")
    }

    /// "3", or "a3" for an automatic one, as `bookmarks [--all]` numbers them.
    static func bookmarkNumber(_ text: String, in command: String) throws(CommandError) -> BookmarkNumber {
        guard let number = BookmarkNumber(text) else {
            throw CommandError("\(command): '\(text)' is not a bookmark number: use \(command) N, N as 'bookmarks' lists them "
                + "(aN for an automatic one, as 'bookmarks --all' lists them)")
        }
        return number
    }
}

/// `set [NAME [VALUE | default]]`: the listener's defaults, in the units typed everywhere
/// (`SettingText`): speed as a factor, the others as times (90, 1:30, 30s, 5m).
enum DefaultsLine {
    static let usage = "set [speed X | skip T | rewind T|off | sleep MINUTES|T|off | silence on|off|MS | loudness on|off | loudness-target LUFS] [default]"

    static func parse(_ arguments: [String]) throws(CommandError) -> DefaultsCommand {
        guard let name = arguments.first else { return .show }
        guard let setting = ListenerSetting(rawValue: name) else {
            throw CommandError("set: '\(name)' is not a default: use speed, skip, rewind, sleep, silence, loudness or loudness-target ('set' lists them)")
        }
        guard arguments.count == 2 else { throw CommandError("usage: set \(name) VALUE | default") }
        let value = arguments[1]
        if value == "default" { return .set(setting, nil) }
        do {
            switch setting {
            case .speed: return .set(.speed, try SettingText.speed(value))
            case .skip: return .set(.skip, try SettingText.skip(value))
            case .rewind: return .set(.rewind, value == "off" ? 0 : try SettingText.rewind(value))
            case .sleep: return .set(.sleep, value == "off" ? nil : try SettingText.sleep(value))
            case .silence: return .set(.silence, try SkipSilenceText.parse(value).minimumSeconds ?? 0)
            case .loudness:
                guard value == "on" || value == "off" else { throw RefusedValue("'\(value)' is not understood: use") }
                return .set(.loudness, value == "on" ? 1 : 0)
            case .loudnessTarget: return .set(.loudnessTarget, try Loudness.target(value))
            }
        } catch {
            let also = setting == .rewind || setting == .sleep ? ", off or default" : setting == .loudness ? " on, off or default" : " or default"
            throw CommandError("set \(name): \(error)\(also)")
        }
    }
}
