/// Pausing by itself (the sleep timer's end): where to pause, the fade before it, a fade under
/// way, and, once decoding reached the point, where to pause when that is heard. A value owned
/// by `Producer`, on the decoder thread: it decides; `Producer+Fade.swift` ramps the volume and
/// pauses the output.
struct AutoPause {
    /// A fade-out under way.
    enum Fade {
        /// Asked for a duration: silence from this output frame (a count of ring frames written)
        /// on; playback pauses once it is heard.
        case untilOutputFrame(Int)
        /// Towards the pause point: silent when decoding reaches it, and `finish()` pauses there.
        case untilPausePoint
        /// Asked for while no output is open (just after `load`, or while one is reopened for
        /// another format): starts when it opens, from `gain`, over what is left.
        case waitingForOutput(seconds: Double, gain: Float)
    }

    /// Where to pause by itself, and the fade before it.
    var point: PausePoint?
    var fadeSeconds = 0.0
    var fade: Fade?
    /// Set when decoding reached the pause point: where `finish()` pauses once it is heard.
    var target: PlaybackPosition?

    /// Drops the point, a fade and a target (a new play list).
    mutating func clear() {
        fade = nil
        point = nil
        target = nil
    }

    /// The point and the target in a replaced list's numbering (they stay on the same audio).
    mutating func renumber(_ renumbering: ItemRenumbering) {
        point = point?.renumbered(renumbering)
        target = target.map { renumbering($0) }
    }

    /// Drops a fade under way and the point; returns whether there was either.
    mutating func cancel() -> Bool {
        guard fade != nil || point != nil else { return false }
        fade = nil
        point = nil
        return true
    }

    /// `wanted`, or fewer when the pause point comes sooner in `position`'s item: decoding stops
    /// exactly there.
    func framesBeforePoint(atMost wanted: Int, from position: PlaybackPosition) -> Int {
        guard let stop = point?.stopFrame(inItem: position.item) else { return wanted }
        return Int(min(Int64(wanted), max(0, stop - position.frame)))
    }

    /// Decoding skipped ahead to `position` (an intro left out): a point in the part skipped is
    /// reached there, where the audible part starts, rather than taken for the item's end (which
    /// would pause only at the next item, the rest of this one unheard).
    mutating func decodingSkipped(to position: PlaybackPosition) {
        guard let stop = point?.stopFrame(inItem: position.item), stop < position.frame else { return }
        point = .position(position)
    }

    /// Decoding stopped at `position`: the end of its item, or the pause point in it. Returns
    /// true when the point was in that item; it is then used up, and `target` says where to
    /// pause once what was decoded is heard.
    mutating func decodingStopped(at position: PlaybackPosition, next: Int?) -> Bool {
        guard let point, point.item == position.item else { return false }
        // Decoding reached the pause point (inside the item, or its end): pause there once
        // heard, or at the start of the next item; after the last item the book just ends.
        self.point = nil
        if point.stopFrame(inItem: position.item) == position.frame {
            target = position
        } else if let next {
            target = PlaybackPosition(item: next, frame: 0)
        }
        return true
    }

    /// Near the pause point, the source frames left before it, so that a fade started now is
    /// silent exactly there; nil when no fade is due. `itemFrames` is the item's length (for a
    /// point at its end); `speed` stretches the fade's wall time into source frames.
    func fadeDue(at position: PlaybackPosition, itemFrames: Int64?, sourceRate: Int, speed: Double) -> Int64? {
        guard fade == nil, let point, point.item == position.item, fadeSeconds > 0,
              let stop = point.stopFrame(inItem: position.item) ?? itemFrames else { return nil }
        let left = max(0, stop - position.frame)
        guard Double(left) <= fadeSeconds * Double(sourceRate) * speed else { return nil }
        return left
    }
}
