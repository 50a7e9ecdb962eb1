import Foundation

/// The "time-coded" test signal: hearing any stretch of it tells you where in the file you are.
///
/// Second `k` of the signal is a pure sine of `frequency(ofSecond: k) = 300 + 25 * (k % 60)` Hz at
/// amplitude 0.5, so seconds 0...59 each have their own frequency (300...1775 Hz) and the pattern
/// repeats every minute: a fixture longer than 60 s identifies a second only modulo 60.
/// Each second starts at phase 0 and is shaped by 5 ms raised-cosine fades at both ends, so the
/// frequency change at a boundary is not a click that a lossy encoder would smear into neighbours.
/// Every channel carries the same signal.
public enum TimeCodedSignal {
    public static let amplitude = 0.5
    public static let fadeSeconds = 0.005
    public static let baseFrequency = 300.0
    public static let frequencyStep = 25.0
    /// The period after which frequencies repeat.
    public static let uniqueSeconds = 60

    public static func frequency(ofSecond second: Int) -> Double {
        baseFrequency + frequencyStep * Double(second % uniqueSeconds)
    }

    /// The second (0..<60) whose frequency is nearest to `frequency`, or nil when the nearest is more
    /// than a third of a step (about 8 Hz) away: then what was measured is not this signal.
    public static func second(forFrequency frequency: Double) -> Int? {
        let index = ((frequency - baseFrequency) / frequencyStep).rounded()
        guard index >= 0, index < Double(uniqueSeconds) else { return nil }
        let second = Int(index)
        guard abs(self.frequency(ofSecond: second) - frequency) <= frequencyStep / 3 else { return nil }
        return second
    }

    /// The (mono) value of the signal at `frame` for a stream at `rate` frames per second.
    public static func value(atFrame frame: Int, rate: Int) -> Float {
        let second = frame / rate
        let t = Double(frame - second * rate) / Double(rate)  // seconds into this second
        let edge = min(t, 1 - t)
        let gain = edge < fadeSeconds ? 0.5 * (1 - cos(Double.pi * edge / fadeSeconds)) : 1
        return Float(amplitude * gain * sin(2 * Double.pi * frequency(ofSecond: second) * t))
    }

    /// `seconds` seconds of the signal at `rate`, interleaved over `channels` identical channels.
    public static func render(seconds: Int, rate: Int, channels: Int) -> [Float] {
        render(frames: seconds * rate, rate: rate, channels: channels)
    }

    /// The first `frames` frames of the signal, interleaved over `channels` identical channels.
    public static func render(frames: Int, rate: Int, channels: Int) -> [Float] {
        precondition(rate > 0 && channels > 0 && frames >= 0, "render(frames: \(frames), rate: \(rate), channels: \(channels))")
        var samples = [Float](repeating: 0, count: frames * channels)
        samples.withUnsafeMutableBufferPointer { out in
            for frame in 0..<frames {
                let value = value(atFrame: frame, rate: rate)
                for channel in 0..<channels { out[frame * channels + channel] = value }
            }
        }
        return samples
    }
}
