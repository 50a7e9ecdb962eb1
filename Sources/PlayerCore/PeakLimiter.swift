import Foundation

/// Keeps boosted audio (a volume over 100 %, a book made louder to even out its loudness) under
/// a ceiling instead of clipping it. Part of the volume stage, used only while its gain is above
/// 1: at 1 or below no sample can grow past what the source holds.
///
/// Hand-written: no Debian library gives us a limiter to call on a buffer (libebur128 measures,
/// libsoxr resamples, libsonic stretches; the LADSPA/LV2 limiters are plugins for hosts).
///
/// It has no look-ahead, so it adds no delay and the position clock needs no latency for it: the
/// gain drops at once to what the frame needs (the loudest channel, so the stereo image stays)
/// and recovers over about 200 ms. That keeps every sample under `sampleCeiling` exactly. The
/// ceiling asked for is -1 dBTP, a true peak (between the samples); with no look-ahead the
/// oversampled peak cannot be known before the sample goes out, so the samples are held 0.5 dB
/// lower than that (-1.5 dBFS): between samples of speech the waveform rises above its samples by
/// less than that (measured with ffmpeg's true-peak meter in PeakLimiterTests and LoudnessTests).
struct PeakLimiter {
    /// -1.5 dBFS: -1 dBTP with 0.5 dB for the peaks between samples.
    static let sampleCeiling: Float = 0.841_395_1
    /// The gain reduction now (1 = none).
    private(set) var reduction: Float = 1
    /// The fraction of the way back to 1 recovered per frame.
    private let recovery: Float

    init(rate: Int) {
        recovery = Float(1 - exp(-1 / (0.2 * Double(max(1, rate)))))
    }

    /// The reduction for a frame whose loudest sample (after the stage's gain) is `peak`.
    mutating func reduction(forPeak peak: Float) -> Float {
        var next = reduction + (1 - reduction) * recovery
        if peak * next > Self.sampleCeiling { next = Self.sampleCeiling / peak }
        // Float steps this small would stall just under 1 forever: done recovering.
        reduction = next > 0.99999 ? 1 : next
        return next
    }

    /// Back to no reduction (a jump: what comes next does not follow what was limited).
    mutating func reset() { reduction = 1 }
}
