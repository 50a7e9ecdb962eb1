/// What skip silence saved while this book played since it was loaded, and from it how much of
/// what is left will not be heard.
///
/// The estimate: the fraction of the source skipped so far (source seconds cut out, over source
/// seconds the heard position advanced by while playing on, cuts included, seeks and jumps
/// not), applied to the source time left. A narrator's pauses are spread evenly enough through
/// a book that the first minutes predict the rest; until half a minute of source was heard there is
/// too little to go on, and nothing is taken off.
struct SilenceSavings {
    /// Source seconds cut out of silences.
    private(set) var skippedSeconds = 0.0
    /// Source seconds the position moved through by playing on.
    private(set) var advancedSeconds = 0.0

    static let secondsBeforeEstimating = 30.0

    mutating func skipped(frames: Int64, rate: Int) {
        guard rate > 0 else { return }
        skippedSeconds += Double(frames) / Double(rate)
    }

    /// The position moved forward by `frames` by playing on (a position report). Jumps larger
    /// than the longest silence worth counting are left out: those were not played through.
    mutating func advanced(frames: Int64, rate: Int) {
        guard rate > 0, frames > 0 else { return }
        let seconds = Double(frames) / Double(rate)
        if seconds <= 120 { advancedSeconds += seconds }
    }

    /// The fraction of source time skipped, nil while too little was heard.
    var skippedFraction: Double? {
        guard advancedSeconds >= Self.secondsBeforeEstimating else { return nil }
        return min(0.9, skippedSeconds / advancedSeconds)
    }

    /// `sourceSecondsLeft` as it will be heard: less the silence expected to be cut, at `speed`.
    func heardSeconds(ofSourceSeconds sourceSecondsLeft: Double, speed: Double, skipping: Bool) -> Double {
        let kept = skipping ? 1 - (skippedFraction ?? 0) : 1
        return sourceSecondsLeft * kept / speed
    }
}
