/// The part of every item not played: its first `introSeconds` and last `outroSeconds` (the
/// intro and credits a lecture series or a many-file book repeats in each file). Positions stay
/// the file's own frames; only what is decoded changes.
public struct ItemTrim: Sendable, Hashable {
    public var introSeconds: Double
    public var outroSeconds: Double

    public static let none = ItemTrim(introSeconds: 0, outroSeconds: 0)

    /// Negative or non-finite seconds count as 0.
    public init(introSeconds: Double, outroSeconds: Double) {
        self.introSeconds = introSeconds.isFinite ? max(0, introSeconds) : 0
        self.outroSeconds = outroSeconds.isFinite ? max(0, outroSeconds) : 0
    }

    public var isNone: Bool { introSeconds == 0 && outroSeconds == 0 }

    /// The frames of an item of `totalFrames` (nil: unknown) at `rate` that are played: from
    /// `start`, up to the frame before `end` (nil: the item's end, unknown). An item too short to
    /// keep anything once both are cut plays whole: a trim meant for long files must not silence
    /// a short one.
    public func audibleRange(totalFrames: Int64?, rate: Int) -> AudibleRange {
        let intro = Int64(saturating: introSeconds * Double(rate))
        let outro = Int64(saturating: outroSeconds * Double(rate))
        guard let totalFrames else { return AudibleRange(start: intro, end: nil) }
        guard totalFrames - outro > intro else { return AudibleRange(start: 0, end: totalFrames) }
        return AudibleRange(start: intro, end: totalFrames - outro)
    }
}

/// The frames of one item that are played (`ItemTrim.audibleRange`).
public struct AudibleRange: Sendable, Hashable {
    /// The first frame played.
    public let start: Int64
    /// Playing stops before this frame; nil when the item's length is unknown (its end).
    public let end: Int64?

    /// Where a jump to `frame` lands: `frame` inside the range, its start before it; nil past
    /// its end (the outro: the next item's start).
    public func landing(_ frame: Int64) -> Int64? {
        if let end, frame >= end { return nil }
        return max(start, frame)
    }
}
