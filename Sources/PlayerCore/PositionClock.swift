/// Maps the output clock (frames the sink has taken from the ring buffer, minus its latency) back
/// to the source position being heard. The producer leaves a mark wherever the source jumps (a new
/// item, a seek); between marks, output and source advance together, at the ratio of their rates
/// when the DSP stage resamples (source frames per output frame).
struct PositionClock {
    struct Mark {
        let outputFrame: Int
        let position: PlaybackPosition
        let sourcePerOutput: Double
    }

    private var marks: [Mark] = []

    mutating func mark(outputFrame: Int, at position: PlaybackPosition, sourcePerOutput: Double = 1) {
        // A mark at the same output frame replaces the older one (two jumps before any audio).
        if let last = marks.last, last.outputFrame == outputFrame { marks.removeLast() }
        marks.append(Mark(outputFrame: outputFrame, position: position, sourcePerOutput: sourcePerOutput))
    }

    /// The marks in the numbering of a replaced play list: the output clock is untouched, so what
    /// is heard goes on without a gap, only its item's number changes.
    mutating func renumber(_ renumbering: ItemRenumbering) {
        marks = marks.map { Mark(outputFrame: $0.outputFrame, position: renumbering($0.position), sourcePerOutput: $0.sourcePerOutput) }
    }

    mutating func reset(outputFrame: Int, at position: PlaybackPosition, sourcePerOutput: Double = 1) {
        marks = [Mark(outputFrame: outputFrame, position: position, sourcePerOutput: sourcePerOutput)]
    }

    /// The position at `outputFrame` ahead of what is heard (the end of what the ring holds),
    /// forgetting no mark.
    func position(ahead outputFrame: Int) -> PlaybackPosition? {
        guard let first = marks.first else { return nil }
        let mark = marks.last { $0.outputFrame <= outputFrame } ?? first
        let elapsed = max(0, outputFrame - mark.outputFrame)
        let sourceElapsed = mark.sourcePerOutput == 1 ? Int64(elapsed) : Int64((Double(elapsed) * mark.sourcePerOutput).rounded())
        return PlaybackPosition(item: mark.position.item, frame: mark.position.frame + sourceElapsed)
    }

    /// The position heard at `outputFrame`, dropping marks that can no longer be reached.
    mutating func position(atOutputFrame outputFrame: Int) -> PlaybackPosition? {
        guard let first = marks.first else { return nil }
        let index = marks.lastIndex { $0.outputFrame <= outputFrame } ?? 0
        if index > 0 { marks.removeFirst(index) }
        let mark = marks.first ?? first
        let elapsed = max(0, outputFrame - mark.outputFrame)
        let sourceElapsed = mark.sourcePerOutput == 1 ? Int64(elapsed) : Int64((Double(elapsed) * mark.sourcePerOutput).rounded())
        return PlaybackPosition(item: mark.position.item, frame: mark.position.frame + sourceElapsed)
    }
}
