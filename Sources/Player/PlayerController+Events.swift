import Library
import PlayerCore

/// The listening events (`ListeningEvent`) the controller tells `broadcast`'s listeners (the
/// event hooks): from its notices, its commands' outcomes, and the states it publishes.
extension PlayerController {
    /// Says `notice` through the front end's `onNotice`, and tells the event it is, if any.
    func tell(_ notice: PlayerNotice) {
        onNotice(notice)
        switch notice {
        case .ended: happened(.finished)
        case .sleepPaused: happened(.sleep)
        case let .outputLost(message): happened(.outputLost, message: message)
        // Another device's place offered once the book is not playing, or taken at `play`
        // (an exchange's own lines are told together: `exchangedWithSyncFolder`).
        case let .synced(line): happened(.synced, message: line)
        default: break
        }
    }

    /// The event a command's outcome is, if any: a bookmark made, a `sync now` that changed something.
    func tellEvent(of outcome: PlayerOutcome) {
        switch outcome {
        case let .bookmarked(place): happened(.bookmark, bookmark: place)
        case let .sync(.exchanged(report)):
            let lines = SyncText.reportLines(report)
            if !lines.isEmpty { happened(.synced, message: lines.joined(separator: "\n")) }
        default: break
        }
    }

    /// An exchange with the sync folder in the background: its lines said, and one `synced`
    /// event for them all (not one a line).
    func exchangedWithSyncFolder(_ result: Result<SyncExchangeReport, SyncProblem>) {
        var lines: [String] = []
        sync.exchanged(result, session: session) { notice in
            onNotice(notice)
            if case let .synced(line) = notice { lines.append(line) }
        }
        if !lines.isEmpty { happened(.synced, message: lines.joined(separator: "\n")) }
    }

    /// The events the state about to be published makes (a start, a pause, a new chapter).
    func tellEvents(of status: Status?) {
        for kind in listeningEvents.follow(status, generation: generation) {
            broadcast.tellListeners(ListeningEvent(kind, status: status, file: currentFile))
        }
    }

    func happened(_ kind: ListeningEvent.Kind, bookmark: BookmarkPlace? = nil, message: String? = nil) {
        let status = session.map { Status(session: $0) }
        broadcast.tellListeners(ListeningEvent(kind, status: status, file: currentFile, bookmark: bookmark, message: message))
    }

    /// The file of the item playing.
    private var currentFile: String? {
        session.map { $0.timeline.items[$0.position.item].path }
    }
}
