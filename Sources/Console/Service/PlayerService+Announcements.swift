import Player

/// What a plain-mode REPL on another terminal hears over the control socket (`Announcement`):
/// the player's notices as they are said here, and what a client's or MPRIS's commands did.
extension PlayerService {
    /// A notice, told to subscribers; made by the request of the socket client running now, if any.
    func announce(_ notice: PlayerNotice, text: String) {
        broadcast.announce(Announcement(lines: [text], isProblem: notice.isProblem, requester: commands.requester))
    }

    /// What a socket client's (`requester`) or MPRIS's (nil) commands did that a screen would
    /// show, in the words the REPL answers with.
    func announce(_ outcomes: [PlayerOutcome], requester: Int32?) {
        let lines = commands.lines(of: outcomes.filter(\.isSeenOnScreen))
        if !lines.isEmpty { broadcast.announce(Announcement(lines: lines, requester: requester)) }
    }
}

extension PlayerOutcome {
    /// Whether a screen would show it happen (a start, a pause, a move, a bookmark, the sleep
    /// timer, a stop): when another client did it, a plain-mode REPL says it, so that a pause
    /// from a media key is not silent. The rest (lists, settings) is that client's business.
    var isSeenOnScreen: Bool {
        switch self {
        case .started, .paused, .resumed, .moved, .undone, .jumpedToBookmark, .bookmarked, .sleepTimer, .stopped: true
        default: false
        }
    }
}
