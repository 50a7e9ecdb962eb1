/// The last DSP stage: a gain (the listener's volume times the book's loudness gain), changed
/// with a short linear ramp so that a change does not click. Above 1 the peak limiter keeps the
/// samples under -1 dBTP (`PeakLimiter`) rather than letting them clip; at 1 or below samples are
/// clamped to [-1, 1] rather than wrapping in a sink. Runs on the decoder thread only; at a
/// steady 1 the caller skips it (bit-exact).
///
/// Hand-written because it is one multiply per sample; no Debian library would be simpler.
final class VolumeStage {
    /// The gain asked for (1 = 100 %).
    private(set) var target: Float
    /// The gain applied to the last sample put out, and its change per frame while ramping.
    private(set) var current: Float
    private var step: Float = 0
    private let channels: Int
    /// Frames a change takes: 15 ms at the output's rate.
    private let rampFrames: Int
    /// The output's rate, for ramps given in seconds.
    let rate: Int
    private var scaled = GrowingBuffer()
    private var limiter: PeakLimiter

    init(gain: Float, channels: Int, rate: Int) {
        target = gain
        current = gain
        self.channels = channels
        rampFrames = max(1, rate * 15 / 1000)
        self.rate = rate
        limiter = PeakLimiter(rate: rate)
    }

    /// True when the stage would change nothing (unity gain, no ramp under way).
    var isUnity: Bool { target == 1 && current == 1 }

    func setGain(_ gain: Float) {
        target = gain
        step = (target - current) / Float(rampFrames)
    }

    /// Ramps to `gain` over `frames` output frames: a long fade (a sleep timer's), linear in
    /// amplitude like the short ramp.
    func ramp(to gain: Float, overFrames frames: Int) {
        target = gain
        step = (target - current) / Float(max(1, frames))
    }

    /// Sets the gain at once, without a ramp: for when nothing queued at the old gain is heard
    /// after the change (the output was just emptied).
    func reset(to gain: Float) {
        target = gain
        current = gain
        step = 0
        limiter.reset()
    }

    /// The frames scaled by the gain (ramping towards the target), limited while it boosts,
    /// else clamped to [-1, 1].
    func apply(_ samples: UnsafePointer<Float>, frames: Int) -> UnsafePointer<Float> {
        if target > 1 || current > 1 || limiter.reduction < 1 { return applyLimited(samples, frames: frames) }
        let out = scaled.reserve(frames * channels)
        for frame in 0..<frames {
            advanceRamp()
            let base = frame * channels
            for channel in 0..<channels {
                out[base + channel] = min(1, max(-1, samples[base + channel] * current))
            }
        }
        return UnsafePointer(out)
    }

    /// One frame further along a ramp under way, landing exactly on the target, never past it.
    @inline(__always)
    private func advanceRamp() {
        guard current != target else { return }
        current += step
        if (step > 0 && current >= target) || (step < 0 && current <= target) { current = target }
    }

    /// `apply` while boosting: the gain, then the limiter's reduction for the frame's loudest
    /// channel (the same for every channel, so the stereo image stays).
    private func applyLimited(_ samples: UnsafePointer<Float>, frames: Int) -> UnsafePointer<Float> {
        let out = scaled.reserve(frames * channels)
        for frame in 0..<frames {
            advanceRamp()
            let base = frame * channels
            var peak: Float = 0
            for channel in 0..<channels { peak = max(peak, abs(samples[base + channel] * current)) }
            let gain = current * limiter.reduction(forPeak: peak)
            // The clamp only catches the last bit the float division may leave over the ceiling.
            let ceiling = PeakLimiter.sampleCeiling
            for channel in 0..<channels { out[base + channel] = min(ceiling, max(-ceiling, samples[base + channel] * gain)) }
        }
        return UnsafePointer(out)
    }
}
