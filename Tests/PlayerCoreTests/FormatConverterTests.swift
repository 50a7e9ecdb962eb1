@testable import PlayerCore
import TestSupport
import Testing

/// The DSP stage: libsoxr for the rate, our own channel mapping.
@Suite struct FormatConverterTests {
    @Test(arguments: [(44100, 48000), (48000, 44100), (22050, 48000)])
    func resamplingKeepsPitchAndLength(from inputRate: Int, to outputRate: Int) throws {
        // Given 4 s of the time-coded signal at the input rate, fed in decoder-sized chunks
        let input = TimeCodedSignal.render(seconds: 4, rate: inputRate, channels: 2)
        let converter = try FormatConverter(from: AudioFormat(rate: inputRate, channels: 2),
                                            to: AudioFormat(rate: outputRate, channels: 2))
        var output: [Float] = []
        input.withUnsafeBufferPointer { samples in
            var frame = 0
            while frame < 4 * inputRate {
                let count = min(4096, 4 * inputRate - frame)
                converter.convert(samples.baseAddress! + frame * 2, frames: count) { output.append(contentsOf: UnsafeBufferPointer(start: $0, count: $1 * 2)) }
                frame += count
            }
        }
        converter.flush { output.append(contentsOf: UnsafeBufferPointer(start: $0, count: $1 * 2)) }
        // Then the output is as long as the input in time, and every second keeps its pitch
        #expect(abs(output.count / 2 - 4 * outputRate) <= 2)
        for second in 0..<4 {
            let start = second * outputRate + outputRate / 4
            let frequency = AudioAnalysis.dominantFrequency(output, channels: 2, rate: outputRate, from: start, count: outputRate / 2)
            #expect(abs(frequency - TimeCodedSignal.frequency(ofSecond: second)) < 0.5, "second \(second): \(frequency) Hz")
        }
    }

    @Test func monoIsPlayedOnBothChannels() throws {
        // Given mono audio at the output's rate
        let input = TimeCodedSignal.render(seconds: 1, rate: 48000, channels: 1)
        let converter = try FormatConverter(from: AudioFormat(rate: 48000, channels: 1), to: AudioFormat(rate: 48000, channels: 2))
        var output: [Float] = []
        input.withUnsafeBufferPointer { samples in
            converter.convert(samples.baseAddress!, frames: 48000) { output.append(contentsOf: UnsafeBufferPointer(start: $0, count: $1 * 2)) }
        }
        // Then both channels carry it unchanged
        #expect(output.count == 96000)
        #expect(AudioAnalysis.channel(output, channels: 2, index: 0) == input)
        #expect(AudioAnalysis.channel(output, channels: 2, index: 1) == input)
    }
}
