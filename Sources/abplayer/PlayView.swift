import Console
import Foundation
import Player
import PlayerCore
import StandardStreams

/// What `play` shows: the file each item starts with on standard output, the player's notices on
/// standard error with the place as exact numbers (scripts and the output tests read them). Its
/// standard input is the console's (`PlayCommand`). Used from `play`'s one task.
final class PlayView {
    private let player: PlayerController
    /// The sample rate of each item, for showing places as times.
    private let rates: [Int]
    /// Set when something failed: `play` exits 1.
    private(set) var failed = false
    /// Set when the output would not open before anything played: `play` gives up at once
    /// (a script is not left waiting for a server; `listen` is the one that waits).
    private(set) var outputNeverOpened = false

    init(player: PlayerController, rates: [Int]) {
        self.player = player
        self.rates = rates
    }

    /// Follows an engine event after the controller took it.
    func follow(_ event: PlaybackEvent) {
        switch event {
        case let .itemChanged(info):
            // A folder's file names come from the disk: shown visibly, like every text from files.
            printOutput("playing " + TerminalText.visible(info.path))
        case let .failed(_, error) where error.kind == .device:
            failed = true
        default:
            break
        }
    }

    /// Shows what the controller tells the listener.
    func show(_ notice: PlayerNotice) {
        switch notice {
        case .started, .heard, .ended:
            // Each file is named as it starts; the end is the exit.
            break
        case .chapterStarted, .sleepTimerEnding:
            // A plain REPL's announcements: each file is named as it starts already.
            break
        case let .itemFailed(_, _, reason):
            failed = true
            printError("abplayer: \(reason)")
        case let .outputUnavailable(message):
            failed = true
            outputNeverOpened = true
            printError("abplayer: \(message)")
        case let .outputLost(message):
            printError("abplayer: output lost: \(message); paused at \(place); resuming there when it is back")
        case .outputRestored:
            printError("abplayer: output back; playing from \(place)")
        case let .stopped(book, reason):
            // The files' library is in memory: no place is saved, unlike a library book's stop.
            printError(TerminalText.visible("abplayer: stopped \(book): \(reason)"))
        case let .outputMoved(message):
            // Headphones unplugged: the book must not go on through the room's speakers.
            printError("abplayer: \(message); paused at \(place); `resume` continues on the new sink")
        case let .outputChanged(name):
            printError("abplayer: now playing to \(name) from \(place)")
        default:
            printError("abplayer: \(notice.text)")
        }
    }

    /// The place heard now, as a time and as exact numbers: `0:12.345 (item 1, frame 544000)`,
    /// items counted from 1 as everywhere else the listener reads them.
    private var place: String {
        guard let position = player.position else { return "the start" }
        let rate = rates.indices.contains(position.item) ? rates[position.item] : nil
        let time = rate.map { Timecode.format(seconds: Double(position.frame) / Double($0)) } ?? "?"
        return "\(time) (item \(position.item + 1), frame \(position.frame))"
    }
}

/// Writes one line to standard output at once (unbuffered: a program reading a pipe sees it now).
func printOutput(_ line: String) {
    StandardStream.output.write(line + "\n")
}
