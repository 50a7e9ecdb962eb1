import Foundation

/// How loud the narration is, estimated from the audio heard so far, so that "silence" can be
/// relative to the book rather than a fixed dBFS: the 90th percentile of the level of 10 ms
/// blocks over the last 30 s. A high percentile follows the voice, not the pauses between
/// words (which may take half the time); blocks quieter than -70 dBFS (digital silence, dither)
/// are not counted at all, so a long pause does not drag the estimate down.
///
/// A histogram of 1 dB bins over a ring of the last blocks' bins: adding a block and reading
/// the percentile cost a few dozen operations, and nothing is allocated after init (it runs on
/// the decoder thread, once per 10 ms of audio).
struct SpeechLevel: ~Copyable {
    static let floorDecibels = -70.0
    static let windowSeconds = 30.0
    static let percentile = 0.9
    private static let binCount = 70

    let blockFrames: Int
    private var counts = [Int](repeating: 0, count: SpeechLevel.binCount)
    /// The bin of each block in the window, or -1 for a block below the floor.
    private var window: [Int]
    private var windowNext = 0
    private var counted = 0

    init(rate: Int) {
        blockFrames = max(1, rate / 100)
        window = [Int](repeating: -1, count: Int(Self.windowSeconds * 100))
    }

    /// The estimate in dBFS (RMS of a 10 ms block), or nil before any block above the floor.
    var decibels: Double? {
        guard counted > 0 else { return nil }
        let rank = Int(Double(counted) * Self.percentile)
        var seen = 0
        for bin in 0..<Self.binCount {
            seen += counts[bin]
            if seen > rank { return Self.floorDecibels + Double(bin) + 0.5 }
        }
        return Self.floorDecibels + Double(Self.binCount)
    }

    /// Adds one 10 ms block's mean square (over its frames and channels): the caller sums the
    /// block itself, so the per-frame loop stays a few operations.
    mutating func add(blockMeanSquare meanSquare: Double) {
        let decibels = meanSquare > 0 ? 10 * log10(meanSquare) : -200
        let bin = decibels < Self.floorDecibels ? -1 : min(Self.binCount - 1, Int(decibels - Self.floorDecibels))
        let leaving = window[windowNext]
        if leaving >= 0 {
            counts[leaving] -= 1
            counted -= 1
        }
        window[windowNext] = bin
        windowNext = (windowNext + 1) % window.count
        if bin >= 0 {
            counts[bin] += 1
            counted += 1
        }
    }
}
