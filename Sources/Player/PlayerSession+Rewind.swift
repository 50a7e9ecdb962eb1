import Foundation
import PlayerCore

/// Auto-rewind's state in a session: whether it is on, and since when the book is paused.
struct RewindState {
    /// The most auto-rewind goes back on resume; nil: off.
    var maxSeconds: Double?
    /// When the engine reported the pause now under way (nil while playing, or after a jump).
    /// On the player's clock.
    private(set) var pausedSince: Duration?
    let clock: any PlayerClock

    init(clock: any PlayerClock) { self.clock = clock }

    /// The engine reported `state`: a pause starts counting now; anything else ends it.
    mutating func engineReported(_ state: PlaybackState) {
        pausedSince = state == .paused ? clock.now : nil
    }

    /// The place moved, or a rewind was taken: the pause counts no more.
    mutating func forgetPause() { pausedSince = nil }

    /// How long the pause under way has lasted; nil when none is.
    var pausedSeconds: Double? { pausedSince.map { (clock.now - $0).seconds } }
}

extension PlayerSession {
    /// Before resuming: goes back by `AutoRewind`'s amount for the time paused (measured from the
    /// engine's pause report with the player's clock), never past the start of the chapter, or
    /// of the item when the chapter began in an earlier one. Not a jump: no bookmark to undo.
    /// Returns how far it went back, in seconds (nil: not at all).
    func rewindAfterPause() -> Double? {
        guard state == .paused, let pausedSeconds = aids.rewind.pausedSeconds, let maxSeconds = aids.rewind.maxSeconds else { return nil }
        aids.rewind.forgetPause()
        let seconds = AutoRewind.seconds(pausedFor: pausedSeconds, maxSeconds: maxSeconds)
        return goBack(seconds: seconds) { jump(to: $0, kind: nil) }
    }

    /// Before a book loaded at its saved place is first heard: goes back by `AutoRewind`'s amount
    /// for the time since that place was saved while playing (`savedAt`, a wall-clock time: the
    /// pause may have spanned quitting the player or listening to another book). Returns how far
    /// it went back, in seconds (nil: not at all). `loaded`: the engine has the book already (a
    /// book cued paused), so going back is a seek of it.
    func rewindBeforeStart(savedAt: Date, now: Date = Date(), loaded: Bool = false) -> Double? {
        guard let maxSeconds = aids.rewind.maxSeconds else { return nil }
        let seconds = AutoRewind.seconds(pausedFor: now.timeIntervalSince(savedAt), maxSeconds: maxSeconds)
        return goBack(seconds: seconds) { loaded ? jump(to: $0, kind: nil) : startAt($0) }
    }

    /// Goes (by `go`) `seconds` before the place, never past the start of the chapter, or of the
    /// item when the chapter began in an earlier one. Returns how far, in seconds (nil: not at all).
    private func goBack(seconds: Double, by go: (PlaybackPosition) -> Void) -> Double? {
        let here = position
        let rate = Double(timeline.items[here.item].sampleRate)
        var floor: Int64 = 0
        if let chapter = timeline.chapterIndex(at: here).map({ timeline.chapters[$0] }), chapter.item == here.item {
            floor = chapter.startFrame
        }
        let target = PlaybackPosition(item: here.item, frame: max(floor, here.frame - Int64(saturating: seconds * rate)))
        guard target.frame < here.frame else { return nil }
        go(target)
        return Double(here.frame - target.frame) / rate
    }
}
