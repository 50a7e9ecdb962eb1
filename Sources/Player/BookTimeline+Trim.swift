import PlayerCore

/// The book as heard with intro and outro skipping (`ItemTrim`): where a jump lands, and how
/// much is left to hear.
extension BookTimeline {
    /// The frames of `item` that are played.
    func audibleRange(ofItem item: Int, trim: ItemTrim) -> AudibleRange {
        trim.audibleRange(totalFrames: items[item].frames, rate: items[item].sampleRate)
    }

    /// Where a jump to `target` lands, as the engine will land it: inside the item's audible part
    /// as it is, in its intro at the intro's end, in its outro at the start of `next`'s audible
    /// part (nil next: the target itself; there the book ends).
    func landing(_ target: PlaybackPosition, trim: ItemTrim, next: Int?) -> PlaybackPosition {
        guard !trim.isNone, items.indices.contains(target.item) else { return target }
        if let frame = audibleRange(ofItem: target.item, trim: trim).landing(target.frame) {
            return PlaybackPosition(item: target.item, frame: frame)
        }
        guard let next, items.indices.contains(next) else { return target }
        return PlaybackPosition(item: next, frame: audibleRange(ofItem: next, trim: trim).start)
    }

    /// Source seconds still to be heard from `position` to the end of the book, the trimmed
    /// parts left out; nil when an item's length is unknown.
    func audibleSecondsLeft(from position: PlaybackPosition, trim: ItemTrim) -> Double? {
        var left = 0.0
        for index in position.item..<items.count {
            guard let frames = items[index].frames else { return nil }
            let range = audibleRange(ofItem: index, trim: trim)
            let from = index == position.item ? max(range.start, position.frame) : range.start
            left += Double(max(0, (range.end ?? frames) - from)) / Double(items[index].sampleRate)
        }
        return left
    }
}
