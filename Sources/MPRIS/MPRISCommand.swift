import Console
import Foundation

/// What an MPRIS method or property write asks of the console, as the command line a user
/// would type (run through `RemoteRequest`, so it saves, bookmarks and undoes like a typed one).
enum MPRISCommand: Equatable {
    /// Run this line and answer with its outcome.
    case line(String)
    /// Nothing to do (the spec says to ignore the call); answer at once.
    case ignore
    /// Answer with this error.
    case refuse(String)

    /// A method of `org.mpris.MediaPlayer2` or `.Player`; nil when there is no such method.
    init?(method: String, arguments: [DBusValue], status: Status?) {
        switch method {
        case "Play": self = .line("play")
        case "Pause": self = .line("pause")
        case "PlayPause": self = .line("toggle")
        // An audiobook player never throws the place away: Stop keeps it, like Pause.
        case "Stop": self = .line("pause")
        case "Next":
            // The spec: with CanGoNext false (the last chapter or item), Next does nothing.
            guard let status, MPRISProperties.hasNext(status) else { self = .ignore; return }
            self = .line(status.chapterCount > 0 ? "chapter next" : "next")
        case "Previous": self = .line(status.map { $0.chapterCount > 0 ? "chapter prev" : "prev" } ?? "prev")
        case "Seek":
            guard let offset = arguments.first?.number else { self = .refuse("Seek takes an offset in microseconds (x)"); return }
            let seconds = offset / 1_000_000
            self = .line("seek \(seconds < 0 ? "-" : "+")\(Self.format(abs(seconds)))")
        case "SetPosition":
            guard arguments.count == 2, case let .objectPath(trackId) = arguments[0], let micros = arguments[1].number else {
                self = .refuse("SetPosition takes a track id (o) and a position in microseconds (x)")
                return
            }
            // The spec: ignore a stale track id, a negative position, or one past the track's end.
            guard let track = Track(status), track.id == trackId, micros >= 0 else { self = .ignore; return }
            let seconds = micros / 1_000_000
            if let length = track.length, seconds > length { self = .ignore; return }
            self = .line("goto \(track.itemNumber) \(Self.format(track.startInItem + seconds))")
        case "OpenUri": self = .refuse("abplayer plays books from its library: 'play BOOK' at the prompt or abplayer remote")
        case "Quit": self = .line("quit")
        case "Raise": self = .ignore
        default: return nil
        }
    }

    /// A write to a Player property; nil when the property cannot be written.
    init?(setting property: String, to value: DBusValue) {
        switch property {
        case "Volume":
            guard let volume = value.number else { self = .refuse("Volume is a double (d)"); return }
            self = .line("volume \(Int((min(1.5, max(0, volume)) * 100).rounded()))")
        case "Rate":
            guard let rate = value.number else { self = .refuse("Rate is a double (d)"); return }
            // The spec: a rate of 0 means pause.
            if rate <= 0 { self = .line("pause"); return }
            self = .line("speed \(Self.format(min(MPRISProperties.maximumRate, max(MPRISProperties.minimumRate, rate))))")
        default: return nil
        }
    }

    /// Seconds with millisecond precision, as the console's time arguments read them.
    static func format(_ seconds: Double) -> String {
        String(format: "%.3f", seconds)
    }
}
