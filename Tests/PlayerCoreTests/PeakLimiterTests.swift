import Foundation
@testable import PlayerCore
import Testing

/// The volume stage's limiter: boosted audio held under the ceiling with no delay.
@Suite struct PeakLimiterTests {
    /// `seconds` of a stereo sine at `amplitude`, 48 kHz.
    static func sine(amplitude: Float, frequency: Double = 1000, seconds: Double = 1) -> [Float] {
        let frames = Int(seconds * 48000)
        return (0..<frames).flatMap { frame -> [Float] in
            let value = amplitude * Float(sin(2 * Double.pi * frequency * Double(frame) / 48000))
            return [value, value]
        }
    }

    static func apply(_ stage: VolumeStage, _ input: [Float]) -> [Float] {
        input.withUnsafeBufferPointer { Array(UnsafeBufferPointer(start: stage.apply($0.baseAddress!, frames: input.count / 2), count: input.count)) }
    }

    @Test func aBoostedSineIsHeldAtTheCeilingWithNoDelay() {
        // Given a sine at -3 dBFS boosted by 6 dB (it would reach +3 dBFS)
        let stage = VolumeStage(gain: 2, channels: 2, rate: 48000)
        let input = Self.sine(amplitude: 0.7071)
        // When it goes through the stage
        let output = Self.apply(stage, input)
        // Then no sample passes the ceiling, and the loudest sit right at it
        let peak = output.map(abs).max() ?? 0
        #expect(peak <= PeakLimiter.sampleCeiling && peak > PeakLimiter.sampleCeiling * 0.99, "\(peak)")
        // and nothing is delayed: each output sample has its input's sign from the first frame on
        #expect(zip(input, output).allSatisfy { ($0 >= 0) == ($1 >= 0) || abs($0) < 1e-6 })
    }

    @Test func afterALoudBurstTheGainComesBackWithinAboutASecond() {
        // Given a boost of 2 and a loud burst followed by quiet audio that fits under the ceiling
        let stage = VolumeStage(gain: 2, channels: 2, rate: 48000)
        _ = Self.apply(stage, Self.sine(amplitude: 0.9, seconds: 0.2))
        let quiet = Self.sine(amplitude: 0.1, seconds: 1.5)
        // When the quiet part plays
        let output = Self.apply(stage, quiet)
        // Then it starts reduced and ends boosted by the whole 6 dB again
        let start = output.prefix(960).map(abs).max() ?? 0
        let end = output.suffix(9600).map(abs).max() ?? 0
        #expect(start < 0.15, "\(start)")
        #expect(abs(end - 0.2) < 0.001, "\(end)")
    }

    @Test func atUnityOrBelowNothingIsLimited() {
        // Given full-scale audio at 100 % and at 80 %
        let input = Self.sine(amplitude: 1)
        let unity = VolumeStage(gain: 1, channels: 2, rate: 48000)
        let lower = VolumeStage(gain: 0.8, channels: 2, rate: 48000)
        // Then at 100 % the stage says it changes nothing (the chain skips it: bit-exact), and at
        // 80 % the samples are only scaled, reaching 0.8
        #expect(unity.isUnity)
        let scaled = Self.apply(lower, input)
        #expect(zip(input, scaled).allSatisfy { $1 == $0 * 0.8 })
    }
}
