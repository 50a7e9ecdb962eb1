import PlayerCore

/// Where a session stands as the listener sees it, ahead of the engine: what was asked last (so
/// `status` right after `pause` says paused), what the engine said last, whether anything was
/// heard, and whether the book stopped at its end.
struct PlayStateTracker {
    /// What the listener asked for last, until the engine reports it.
    private var requested: PlaybackState?
    /// The engine's state as its events said last (`requested` runs ahead of it).
    private var reported = PlaybackState.stopped
    /// Whether the book was heard: a position reported while the engine played. Until then a
    /// lost output is one that never opened.
    private(set) var hasPlayed = false
    /// The book played to its end and stopped there: `play` starts it again (or the queue's
    /// next) rather than replaying the last fraction of a second. A jump clears it.
    private(set) var hasEnded = false

    /// The state to show, given the engine's.
    func state(engine: PlaybackState) -> PlaybackState { requested ?? engine }

    /// The listener asked to play or pause (or a load that will).
    mutating func asked(_ state: PlaybackState) {
        requested = state
        if state == .playing { hasEnded = false }
    }

    /// The place moved: the end is no longer where the book is.
    mutating func moved() { hasEnded = false }

    /// The engine reported a place.
    mutating func heardPosition() {
        if reported == .playing { hasPlayed = true }
    }

    /// The engine reported a new state.
    mutating func reportedState(_ state: PlaybackState) {
        reported = state
        if state == requested || state == .stopped { requested = nil }
    }

    /// The engine stopped on its own (the end, an output lost or moved): what was asked is void.
    mutating func engineStoppedOnItsOwn() { requested = nil }

    /// The book stopped at the end of its play order's last item.
    mutating func reachedEnd() { hasEnded = true }
}
