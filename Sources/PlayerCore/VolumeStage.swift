/// The last DSP stage: a gain, changed with a short linear ramp so that a change does not click.
/// Above 100 % the signal may clip: samples are clamped to [-1, 1] rather than wrapping in a sink.
/// Runs on the decoder thread only; at a steady 100 % the caller skips it (bit-exact).
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
    private var scaled = GrowingBuffer()

    init(gain: Float, channels: Int, rate: Int) {
        target = gain
        current = gain
        self.channels = channels
        rampFrames = max(1, rate * 15 / 1000)
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
    }

    /// The frames scaled by the gain (ramping towards the target), clamped to [-1, 1].
    func apply(_ samples: UnsafePointer<Float>, frames: Int) -> UnsafePointer<Float> {
        let out = scaled.reserve(frames * channels)
        for frame in 0..<frames {
            if current != target {
                current += step
                // Land exactly on the target, never past it.
                if (step > 0 && current >= target) || (step < 0 && current <= target) { current = target }
            }
            let base = frame * channels
            for channel in 0..<channels {
                out[base + channel] = min(1, max(-1, samples[base + channel] * current))
            }
        }
        return UnsafePointer(out)
    }
}
