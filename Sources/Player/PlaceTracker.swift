import PlayerCore

/// Where the listener is: the last place heard, or where the last jump went until the engine
/// reports hearing it (position events already queued from before a jump must not move us back).
struct PlaceTracker {
    private(set) var position: PlaybackPosition
    private(set) var pendingJump: PlaybackPosition?
    /// How many jumps there were (observers are told of each as a seek).
    private(set) var jumps = 0
    /// Seeks sent to the engine that it has not reported taking (`.jumped`) yet: until it has
    /// taken the last, what it reports is from before it (a burst of seeks while paused, the
    /// engine reporting each place it went through after the last one was sent).
    private var seeksInFlight = 0

    init(position: PlaybackPosition) { self.position = position }

    mutating func jumped(to target: PlaybackPosition) {
        jumps += 1
        seeksInFlight += 1
        position = target
        pendingJump = target
    }

    /// The engine took one of the seeks sent, in the order sent.
    mutating func seekTaken() { seeksInFlight = max(0, seeksInFlight - 1) }

    /// Whether what the engine reports now is from before the last jump.
    var reportsAreStale: Bool { seeksInFlight > 0 }

    /// Takes a heard place; false when it is from before a pending jump (ignored).
    mutating func heard(_ heard: PlaybackPosition, tolerance: Int64) -> Bool {
        guard !reportsAreStale else { return false }
        if let pending = pendingJump {
            guard heard.item == pending.item, abs(heard.frame - pending.frame) < tolerance else { return false }
            pendingJump = nil
        }
        position = heard
        return true
    }

    /// The same place in a replaced item list's numbering.
    mutating func renumber(_ renumbering: ItemRenumbering) {
        position = renumbering(position)
        pendingJump = pendingJump.map { renumbering($0) }
    }

    mutating func itemChanged(to item: Int) {
        if pendingJump?.item != item { pendingJump = nil }
    }

    mutating func settled() { pendingJump = nil }

    /// Playback stopped at `end`, the end of the book: where the listener is now.
    mutating func reachedEnd(_ end: PlaybackPosition) {
        pendingJump = nil
        position = end
    }
}
