public import Library
public import Player
public import PlayerCore

/// One thing the user asked the REPL to do, parsed and checked.
public enum Command: Equatable, Sendable {
    case help(HelpPage)
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
    /// `intro [T|off|default]`, `outro …`: seconds left out of every item of the book loaded;
    /// nil: show them.
    case skipIntro(Double?)
    case skipOutro(Double?)
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
        // The parser takes no command that help does not list: every command is in a topic.
        guard CommandHelp.named(name) != nil else { throw Self.unknown(name) }
        switch name {
        case "help", "?": self = .help(try HelpPage(arguments: arguments))
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
            guard arguments.count == 1 else { throw CommandError("usage: unset speed | skip | rewind | sleep | silence | loudness | loudness-target | intro | outro | plain") }
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
        case "intro", "outro":
            let intro = name == "intro"
            if arguments.isEmpty { self = intro ? .skipIntro(nil) : .skipOutro(nil); return }
            guard arguments.count == 1 else { throw usage() }
            if arguments[0] == "default" { self = .useDefault(intro ? .intro : .outro); return }
            do {
                let seconds = try IntroOutroText.parse(arguments[0])
                self = intro ? .skipIntro(seconds) : .skipOutro(seconds)
            } catch {
                throw CommandError("\(name): \(error)")
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
            // Only a command `CommandHelp` lists gets this far (see above), so only one this
            // switch forgot: the test that parses every listed name finds it.
            throw Self.unknown(name)
        }
    }

    /// A word that is no command, with the nearest that is.
    private static func unknown(_ name: String) -> CommandError {
        if let near = Suggestion.nearest(to: name, among: CommandHelp.all.flatMap { [$0.name] + $0.aliases }) {
            return CommandError("unknown command '\(name)': did you mean '\(near)'? ('help' lists the commands)")
        }
        return CommandError("unknown command '\(name)': 'help' lists the commands")
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
    static let usage = "set [speed X | skip T | rewind T|off | sleep MINUTES|T|off | silence on|off|MS | loudness on|off | loudness-target LUFS | intro T|off | outro T|off | plain on|off] [default]"

    static func parse(_ arguments: [String]) throws(CommandError) -> DefaultsCommand {
        guard let name = arguments.first else { return .show }
        guard let setting = ListenerSetting(rawValue: name) else {
            throw CommandError("set: '\(name)' is not a default: use speed, skip, rewind, sleep, silence, loudness, loudness-target, intro, outro or plain ('set' lists them)")
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
            case .loudness, .plain:
                guard value == "on" || value == "off" else { throw RefusedValue("'\(value)' is not understood: use") }
                return .set(setting, value == "on" ? 1 : 0)
            case .loudnessTarget: return .set(.loudnessTarget, try Loudness.target(value))
            case .intro, .outro: return .set(setting, try IntroOutroText.parse(value))
            }
        } catch {
            let also = setting == .rewind || setting == .sleep || setting == .intro || setting == .outro ? ", off or default" : setting == .loudness || setting == .plain ? " on, off or default" : " or default"
            throw CommandError("set \(name): \(error)\(also)")
        }
    }
}
