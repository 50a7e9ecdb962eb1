@testable import PlayerCore
import Testing

@Suite struct VolumeStageTests {
    @Test func aChangeRampsOverFifteenMillisecondsWithoutAJump() {
        // Given a steady stereo signal at 0.5 through the stage at 100 %
        let rate = 48000
        let stage = VolumeStage(gain: 1, channels: 2, rate: rate)
        let input = [Float](repeating: 0.5, count: 2 * 2000)
        #expect(stage.isUnity)
        // When the gain goes to 0
        stage.setGain(0)
        let output = input.withUnsafeBufferPointer { Array(UnsafeBufferPointer(start: stage.apply($0.baseAddress!, frames: 2000), count: 4000)) }
        // Then it falls steadily: no step bigger than one 720th of the change, silent after 15 ms
        let left = stride(from: 0, to: output.count, by: 2).map { output[$0] }
        let steps = zip(left, left.dropFirst()).map { $0 - $1 }
        #expect(steps.allSatisfy { $0 >= 0 && $0 <= 0.5 / 720 + 1e-6 })
        #expect(left[0] > 0.49)
        #expect(left[719...].allSatisfy { $0 == 0 })
        #expect(zip(left, stride(from: 1, to: output.count, by: 2).map { output[$0] }).allSatisfy { $0 == $1 })
    }

    @Test func gainAbove1IsLimitedUnderTheCeilingInsteadOfClipping() {
        // Given a boost of 1.5 and samples that it would take past full scale
        let stage = VolumeStage(gain: 1.5, channels: 1, rate: 48000)
        let input: [Float] = [0.5, -0.5, 0.9, -0.9, 1, -1]
        let output = input.withUnsafeBufferPointer { Array(UnsafeBufferPointer(start: stage.apply($0.baseAddress!, frames: 6), count: 6)) }
        // Then those under the ceiling are boosted as they are, and the others held at it
        #expect(Array(output[0..<2]) == [0.75, -0.75])
        #expect(output[2...].allSatisfy { abs($0) <= PeakLimiter.sampleCeiling && abs($0) > PeakLimiter.sampleCeiling * 0.99 })
    }
}
