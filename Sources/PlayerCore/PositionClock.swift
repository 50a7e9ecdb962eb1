/// Maps the output clock (frames the sink has taken from the ring buffer, minus its latency) back
/// to the source position being heard. The producer leaves a mark wherever the source jumps (a new
/// item, a seek); between marks, output and source advance together.
struct PositionClock {
    struct Mark {
        let outputFrame: Int
        let position: PlaybackPosition
    }

    private var marks: [Mark] = []

    mutating func mark(outputFrame: Int, at position: PlaybackPosition) {
        // A mark at the same output frame replaces the older one (two jumps before any audio).
        if let last = marks.last, last.outputFrame == outputFrame { marks.removeLast() }
        marks.append(Mark(outputFrame: outputFrame, position: position))
    }

    mutating func reset(outputFrame: Int, at position: PlaybackPosition) {
        marks = [Mark(outputFrame: outputFrame, position: position)]
    }

    /// The position heard at `outputFrame`, dropping marks that can no longer be reached.
    mutating func position(atOutputFrame outputFrame: Int) -> PlaybackPosition? {
        guard let first = marks.first else { return nil }
        let index = marks.lastIndex { $0.outputFrame <= outputFrame } ?? 0
        if index > 0 { marks.removeFirst(index) }
        let mark = marks.first ?? first
        let elapsed = max(0, outputFrame - mark.outputFrame)
        return PlaybackPosition(item: mark.position.item, frame: mark.position.frame + Int64(elapsed))
    }
}
