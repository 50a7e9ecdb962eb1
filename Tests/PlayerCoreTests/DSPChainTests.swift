@testable import PlayerCore
import TestSupport
import Testing

/// The chain between the decoder and the ring: speed -> conversion -> volume.
@Suite struct DSPChainTests {
    /// Everything `chain` puts out for `input` (interleaved, `channels` a frame), fed in
    /// decoder-sized chunks, then flushed; and the largest output of one chunk against its bound.
    static func run(_ chain: DSPChain, _ input: [Float], channels: Int) -> (output: [Float], boundHeld: Bool) {
        var output: [Float] = []
        var boundHeld = true
        let frames = input.count / channels
        input.withUnsafeBufferPointer { samples in
            var frame = 0
            while frame < frames {
                let count = min(4096, frames - frame)
                var chunkOutput = 0
                chain.process(samples.baseAddress! + frame * channels, frames: count, firstSourceFrame: Int64(frame), into: {
                    output.append(contentsOf: UnsafeBufferPointer(start: $0, count: $1 * channels))
                    chunkOutput += $1
                }, cut: { _ in })
                boundHeld = boundHeld && chunkOutput <= chain.maxOutputFrames(forInput: count)
                frame += count
            }
        }
        chain.flushSpeedStage { output.append(contentsOf: UnsafeBufferPointer(start: $0, count: $1 * channels)) }
        chain.flushConverter { output.append(contentsOf: UnsafeBufferPointer(start: $0, count: $1 * channels)) }
        return (output, boundHeld)
    }

    @Test func atSpeedOneAndFullVolumeTheAudioPassesUntouched() throws {
        // Given a chain connected to a sink at the source's own format
        let format = AudioFormat(rate: 44100, channels: 2)
        var chain = DSPChain()
        try chain.connect(source: format, sink: format)
        try chain.prepareSpeedStage(for: format)
        // Then nothing is made, and the samples come out bit-exact
        #expect(chain.speedStage == nil && chain.converter == nil && chain.sourcePerOutput == 1)
        let input = TimeCodedSignal.render(seconds: 1, rate: 44100, channels: 2)
        #expect(Self.run(chain, input, channels: 2).output == input)
    }

    @Test func speedAndResamplingSetTheClocksRatioAndTheLength() throws {
        // Given 44.1 kHz audio to a 48 kHz sink, at double speed
        let source = AudioFormat(rate: 44100, channels: 2)
        var chain = DSPChain()
        try chain.connect(source: source, sink: AudioFormat(rate: 48000, channels: 2))
        chain.setSpeed(2)
        try chain.prepareSpeedStage(for: source)
        // Then the clock advances two source frames for every 48/44.1 output frames
        #expect(abs(chain.sourcePerOutput - 2 * 44100 / 48000) < 1e-12)
        // and 4 s of source come out as 2 s at 48 kHz, no chunk beyond its bound
        let input = TimeCodedSignal.render(seconds: 4, rate: 44100, channels: 2)
        let (output, boundHeld) = Self.run(chain, input, channels: 2)
        #expect(boundHeld)
        #expect(abs(output.count / 2 - 2 * 48000) < 48000 / 100, "\(output.count / 2) frames")
    }

    @Test func aVolumeChangeRampsAndAResetIsAtOnce() throws {
        // Given a chain at 100 % on a 48 kHz stereo sink
        let format = AudioFormat(rate: 48000, channels: 2)
        var chain = DSPChain()
        try chain.connect(source: format, sink: format)
        let input = [Float](repeating: 0.5, count: 2 * 4800)
        // When the volume goes to 50 %
        chain.setVolume(0.5)
        let ramped = Self.run(chain, input, channels: 2).output
        // Then it gets there over 15 ms, and stays
        #expect(ramped[0] > 0.49 && ramped[0] < 0.5)
        #expect(ramped[(2 * 720)...].allSatisfy { $0 == 0.25 })
        // When a fade takes it down and it is reset: the gain asked for is back at once
        chain.volumeStage?.ramp(to: 0, overFrames: 10)
        #expect(Self.run(chain, input, channels: 2).output.last == 0)
        chain.resetVolume()
        #expect(Self.run(chain, input, channels: 2).output.first == 0.25)
    }
}
