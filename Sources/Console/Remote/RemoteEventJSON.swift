import Foundation
import Player
import PlayerCore

/// The JSON line of a `PlayerUpdate` for `subscribe`, one stable shape for scripts:
/// `{"event":"changed"|"position"|"seeked","status":{...}}` (`status` null when no book is
/// loaded), `{"event":"engine","engine":{"type":...}}` with the fields of that engine event, or
/// `{"event":"library"}` when the library's books or shelves changed, or
/// `{"event":"announcement","lines":[...],"problem":false}`: what a plain-mode client says as it
/// happens (`Announcement`; a subscriber is not sent those its own process's requests made).
struct RemoteEventJSON: Encodable {
    let event: String
    /// What the line carries besides its `event`.
    let body: Body

    enum Body {
        /// Null when no book is loaded.
        case status(Status?)
        case engine(EngineEventJSON)
        case announcement(Announcement)
        case nothing
    }

    init(_ consoleEvent: PlayerUpdate) {
        switch consoleEvent {
        case let .changed(status): (event, body) = ("changed", .status(status))
        case let .position(status): (event, body) = ("position", .status(status))
        case let .seeked(status): (event, body) = ("seeked", .status(status))
        case let .engine(playbackEvent): (event, body) = ("engine", .engine(EngineEventJSON(playbackEvent)))
        case .libraryChanged: (event, body) = ("library", .nothing)
        case let .announcement(announcement): (event, body) = ("announcement", .announcement(announcement))
        }
    }

    enum CodingKeys: String, CodingKey { case event, status, engine, lines, problem }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(event, forKey: .event)
        switch body {
        case let .status(status): try container.encode(status, forKey: .status) // null when nothing is loaded
        case let .engine(engine): try container.encode(engine, forKey: .engine)
        case let .announcement(announcement):
            try container.encode(announcement.lines, forKey: .lines)
            try container.encode(announcement.isProblem, forKey: .problem)
        case .nothing: break
        }
    }

    static func line(_ event: PlayerUpdate) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return ((try? encoder.encode(RemoteEventJSON(event))) ?? Data("{}".utf8)) + Data("\n".utf8)
    }
}

/// An engine event: `type` names it (the `PlaybackEvent` case); `state`, `item` (0-based),
/// `frame`, `value` (speed, or volume in percent) and `message` are there when it has them.
struct EngineEventJSON: Encodable {
    var type: String
    var state: String?
    var item: Int?
    var frame: Int64?
    var value: Double?
    var message: String?

    init(_ event: PlaybackEvent) {
        switch event {
        case let .stateChanged(state):
            type = "stateChanged"
            self.state = switch state {
            case .playing: "playing"
            case .paused: "paused"
            case .stopped: "stopped"
            }
        case let .position(position): type = "position"; item = position.item; frame = position.frame
        case let .itemChanged(info): type = "itemChanged"; item = info.index
        case let .failed(index, error): type = "failed"; item = index; message = "\(error)"
        case .ended: type = "ended"
        case let .outputLost(reason): type = "outputLost"; message = reason
        case .outputRestored: type = "outputRestored"
        case let .outputMoved(reason): type = "outputMoved"; message = reason
        case .outputChanged: type = "outputChanged"
        case let .speedChanged(speed): type = "speedChanged"; value = speed
        case let .volumeChanged(volume): type = "volumeChanged"; value = volume
        case let .silenceSkipped(index, frames, rate): type = "silenceSkipped"; item = index; value = rate > 0 ? Double(frames) / Double(rate) : 0
        case let .trimmed(index, frames, rate): type = "introOutroSkipped"; item = index; value = rate > 0 ? Double(frames) / Double(rate) : 0
        case let .fadedOut(position): type = "fadedOut"; item = position.item; frame = position.frame
        case .fadeCancelled: type = "fadeCancelled"
        // The controller consumes it (its events are already numbered as the new list).
        case .itemsReplaced: type = "itemsReplaced"
        case let .jumped(position): type = "jumped"; item = position.item; frame = position.frame
        }
    }
}
