import Foundation
import Player
import PlayerCore

/// What an MPRIS method or property write asks of the player, as the typed command a typed line
/// or key would run (so it saves, bookmarks and undoes like them).
enum MPRISCommand: Equatable {
    /// Run this and answer with its outcome.
    case perform(PlayerCommand)
    /// Stop the whole player (Quit).
    case quit
    /// Nothing to do (the spec says to ignore the call); answer at once.
    case ignore
    /// Answer with this error.
    case refuse(String)

    /// A method of `org.mpris.MediaPlayer2` or `.Player`; nil when there is no such method.
    init?(method: String, arguments: [DBusValue], status: Status?) {
        switch method {
        case "Play": self = .perform(.play(bookId: nil))
        case "Pause": self = .perform(.pause)
        case "PlayPause": self = .perform(.toggle)
        // An audiobook player never throws the place away: Stop keeps it, like Pause.
        case "Stop": self = .perform(.pause)
        case "Next":
            // The spec: with CanGoNext false (the last chapter or item), Next does nothing.
            guard let status, MPRISProperties.hasNext(status) else { self = .ignore; return }
            self = .perform(status.chapterCount > 0 ? .chapter(.next) : .nextItem)
        case "Previous": self = .perform((status?.chapterCount ?? 0) > 0 ? .chapter(.previous) : .previousItem)
        case "Seek":
            guard let offset = arguments.first?.number else { self = .refuse("Seek takes an offset in microseconds (x)"); return }
            self = .perform(.seek(.relative(seconds: offset / 1_000_000)))
        case "SetPosition":
            guard arguments.count == 2, case let .objectPath(trackId) = arguments[0], let micros = arguments[1].number else {
                self = .refuse("SetPosition takes a track id (o) and a position in microseconds (x)")
                return
            }
            // The spec: ignore a stale track id, a negative position, or one past the track's end.
            guard let track = Track(status), track.id == trackId, micros >= 0 else { self = .ignore; return }
            let seconds = micros / 1_000_000
            if let length = track.length, seconds > length { self = .ignore; return }
            self = .perform(.goto(item: track.itemNumber - 1, seconds: track.startInItem + seconds))
        case "OpenUri": self = .refuse("abplayer plays books from its library: 'play BOOK' at the prompt or abplayer remote")
        case "Quit": self = .quit
        case "Raise": self = .ignore
        default: return nil
        }
    }

    /// A write to a Player property; nil when the property cannot be written.
    init?(setting property: String, to value: DBusValue) {
        switch property {
        case "Volume":
            guard let volume = value.number else { self = .refuse("Volume is a double (d)"); return }
            self = .perform(.volume(percent: (min(1.5, max(0, volume)) * 100).rounded()))
        case "Rate":
            guard let rate = value.number else { self = .refuse("Rate is a double (d)"); return }
            // The spec: a rate of 0 means pause.
            if rate <= 0 { self = .perform(.pause); return }
            self = .perform(.speed(min(MPRISProperties.maximumRate, max(MPRISProperties.minimumRate, rate))))
        case "Shuffle":
            guard case let .bool(on) = value else { self = .refuse("Shuffle is a boolean (b)"); return }
            self = .perform(.shuffle(on))
        case "LoopStatus":
            guard case let .string(name) = value, let mode = MPRISProperties.repeatMode(loopStatus: name) else {
                self = .refuse("LoopStatus is one of None, Track (repeat the item) or Playlist (repeat the book) (s)")
                return
            }
            self = .perform(.repeatMode(mode))
        default: return nil
        }
    }
}
