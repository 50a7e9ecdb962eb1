public import Player
public import Library
import PlayerCore

/// `sleep [30 | 45s | 1:15:00 | chapter | item | off | +5 | cycle]`: a bare number is minutes.
extension SleepCommand {
    init(arguments: [String]) throws(CommandError) {
        guard arguments.count <= 1 else { throw CommandError("usage: \(SleepCommand.usage)") }
        guard let argument = arguments.first else { self = .show; return }
        switch argument {
        case "off": self = .off
        case "chapter": self = .endOfChapter
        case "item": self = .endOfItem
        case "cycle": self = .cycle
        default:
            let extending = argument.hasPrefix("+")
            do {
                let seconds = try SettingText.sleep(extending ? String(argument.dropFirst()) : argument)
                self = extending ? .extend(seconds) : .duration(seconds)
            } catch {
                throw CommandError("sleep: \(error); or chapter, item, off, cycle")
            }
        }
    }

    static let usage = "sleep [MINUTES | 45s | 1:15:00 | chapter | item | off | +MINUTES | cycle]"
}

/// `queue ...` as typed: the books to play after this one, named as typed (the console finds
/// them in the library). Indexes are 1-based as typed.
public enum QueueLine: Equatable, Sendable {
    case list
    case add(String)
    case move(from: Int, to: Int)
    case remove(Int)
    case clear

    init(arguments: [String]) throws(CommandError) {
        func index(_ text: String) throws(CommandError) -> Int {
            guard let number = Int(text), number >= 1 else {
                throw CommandError("queue: '\(text)' is not a place in the queue: use a number from 1 ('queue' lists them)")
            }
            return number
        }
        switch arguments.first {
        case nil: self = .list
        case "add":
            guard arguments.count >= 2 else { throw CommandHelp.usageError("queue", action: "add") }
            self = .add(arguments.dropFirst().joined(separator: " "))
        case "mv":
            guard arguments.count == 3 else { throw CommandHelp.usageError("queue", action: "mv") }
            self = .move(from: try index(arguments[1]), to: try index(arguments[2]))
        case "rm":
            guard arguments.count == 2 else { throw CommandHelp.usageError("queue", action: "rm") }
            self = .remove(try index(arguments[1]))
        case "clear":
            guard arguments.count == 1 else { throw CommandHelp.usageError("queue", action: "clear") }
            self = .clear
        case let other?:
            throw CommandError("queue: unknown '\(other)': use \(QueueLine.usage)")
        }
    }

    static let usage = "queue [add BOOK | mv I J | rm I | clear]"
}

/// `repeat`, `shuffle` and `rewind`: how playback goes on.
public enum PlaybackModeCommand: Equatable, Sendable {
    /// Nil: show it.
    case repeatMode(RepeatMode?)
    case shuffle(Bool?)
    case rewind(RewindSetting?)

    init(name: String, arguments: [String]) throws(CommandError) {
        guard arguments.count <= 1 else { throw CommandError("usage: \(CommandHelp.named(name)?.usage ?? name)") }
        let argument = arguments.first
        switch name {
        case "repeat":
            guard let argument else { self = .repeatMode(nil); return }
            guard let mode = RepeatMode(rawValue: argument) else {
                throw CommandError("repeat: '\(argument)' is not a mode: use off, item or book")
            }
            self = .repeatMode(mode)
        case "shuffle":
            switch argument {
            case nil: self = .shuffle(nil)
            case "on": self = .shuffle(true)
            case "off": self = .shuffle(false)
            case let other?: throw CommandError("shuffle: '\(other)' is not on or off")
            }
        default:
            switch argument {
            case nil: self = .rewind(nil)
            case "auto": self = .rewind(.auto)
            case "off": self = .rewind(.off)
            case let text?:
                do {
                    self = .rewind(.max(try SettingText.rewind(text)))
                } catch {
                    throw CommandError("rewind: \(error); or auto, off")
                }
            }
        }
    }
}

extension CommandHelp {
    static let playback: [CommandHelp] = [
        CommandHelp(name: "sleep", topic: .playback, usage: SleepCommand.usage,
                    summary: "stop after a time of playing (a bare number is minutes; paused time does not count), at the end of the chapter or item; fades out over 10 s and bookmarks the place"),
        CommandHelp(name: "queue", topic: .playback, usage: QueueLine.usage, summary: "books to play when this one ends (kept in the library); alone: the queue, numbered by place",
                    actions: [
                        Action(name: "add", usage: "queue add BOOK", summary: "put BOOK at the end of the queue"),
                        Action(name: "mv", usage: "queue mv I J", summary: "move the book at place I of the queue to place J"),
                        Action(name: "rm", usage: "queue rm I", summary: "take the book at place I off the queue"),
                        Action(name: "clear", usage: "queue clear", summary: "empty the queue"),
                    ]),
        CommandHelp(name: "sync", topic: .sync, usage: SyncLine.usage,
                    summary: "your place, bookmarks and finished books on every computer, through a folder Syncthing (or the like) keeps the same",
                    actions: [
                        Action(name: "status", usage: "sync [status]", summary: "where each book stands here and on the other computers"),
                        Action(name: "now", usage: "sync now", summary: "exchange with the folder now"),
                        Action(name: "dir", usage: "sync dir FOLDER|off", summary: "the folder the computers share (remembered); off: sync no more"),
                        Action(name: "jump", usage: "sync jump", summary: "go to the later place another computer offers for the book loaded"),
                        Action(name: "auto-jump", usage: "sync auto-jump on|off", summary: "whether playing the book loaded goes to that later place by itself (on by default)"),
                        Action(name: "name", usage: "sync name [NAME]", summary: "what this computer is called on the others (alone: says it; the host name until named)"),
                    ]),
        CommandHelp(name: "repeat", topic: .playback, usage: "repeat [off | item | book]", summary: "play the item again and again, or the book from its start when it ends"),
        CommandHelp(name: "shuffle", topic: .playback, usage: "shuffle [on | off]", summary: "play the book's items in a random order, each once per pass"),
        CommandHelp(name: "rewind", topic: .settings, usage: "rewind [auto | off | MAX]", summary: "on resume go back a little, more the longer the pause (up to MAX, a time from 1s to 10m; 30 s by default)"),
    ]
}
