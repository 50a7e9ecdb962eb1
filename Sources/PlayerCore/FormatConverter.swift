import CSoxr
import LazyLibraries

/// The DSP stage between the decoder and the ring buffer when the sink runs at another format:
/// channels are mapped first (a mono book is heard on both sides of a stereo output), then
/// libsoxr changes the rate. Runs on the decoder thread only; its buffers grow once, at the
/// largest chunk, and are reused.
final class FormatConverter {
    let input: AudioFormat
    let output: AudioFormat
    private let resampler: soxr_t?
    /// Scratch buffers, grown (never shrunk) to the largest chunk seen.
    private var mapped = GrowingBuffer()
    private var converted = GrowingBuffer()

    init(from input: AudioFormat, to output: AudioFormat) throws {
        self.input = input
        self.output = output
        guard input.rate != output.rate else {
            resampler = nil
            return
        }
        guard abp_soxr_load() else {
            throw AudioError(.unsupported, subject: "resampler",
                             reason: "\(String(cString: abp_soxr_load_error())); install libsoxr0")
        }
        var error: soxr_error_t?
        var io = soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I)
        // High quality (20-bit, linear phase): the quality every player ships; the cost is small
        // next to decoding.
        var quality = soxr_quality_spec(UInt(SOXR_HQ), 0)
        let created = soxr_create(Double(input.rate), Double(output.rate), UInt32(output.channels), &error, &io, &quality, nil)
        if let error {
            throw AudioError(.unsupported, subject: "resampler",
                             reason: "libsoxr cannot convert \(input.rate) Hz to \(output.rate) Hz: \(String(cString: error))")
        }
        resampler = created
    }

    deinit {
        if let resampler { soxr_delete(resampler) }
    }

    /// Source frames per output frame, for the position clock.
    var sourcePerOutput: Double { Double(input.rate) / Double(output.rate) }

    /// Output frames that `frames` input frames may turn into (an upper bound).
    func maxOutputFrames(forInput frames: Int) -> Int {
        Int((Double(frames) * Double(output.rate) / Double(input.rate)).rounded(.up)) + 64
    }

    /// Converts `frames` interleaved input frames and hands the result to `body`.
    func convert(_ samples: UnsafePointer<Float>, frames: Int, _ body: (UnsafePointer<Float>, Int) -> Void) {
        let mappedSamples = mapChannels(samples, frames: frames)
        guard let resampler else {
            body(mappedSamples, frames)
            return
        }
        process(resampler, mappedSamples, frames: frames, body)
    }

    /// The last output frames the resampler holds back (call once at the end of the audio).
    func flush(_ body: (UnsafePointer<Float>, Int) -> Void) {
        guard let resampler else { return }
        process(resampler, nil, frames: 0, body)
    }

    /// Forgets the signal so far (after a seek), keeping the configuration.
    func reset() { if let resampler { soxr_clear(resampler) } }

    private func process(_ resampler: soxr_t, _ samples: UnsafePointer<Float>?, frames: Int,
                         _ body: (UnsafePointer<Float>, Int) -> Void) {
        let capacity = maxOutputFrames(forInput: max(frames, 4096))
        let out = converted.reserve(capacity * output.channels)
        var consumed = 0
        repeat {
            var inputDone = 0
            var outputDone = 0
            let input = samples.map { UnsafeRawPointer($0 + consumed * output.channels) }
            _ = soxr_process(resampler, input, frames - consumed, &inputDone, out, capacity, &outputDone)
            consumed += inputDone
            if outputDone > 0 { body(out, outputDone) }
            // Flushing: done when soxr has nothing more to give.
            if samples == nil && outputDone == 0 { return }
            if samples != nil && inputDone == 0 && outputDone == 0 { return }
        } while consumed < frames || samples == nil
    }

    /// The input with `output.channels` channels (the input itself when they agree).
    private func mapChannels(_ samples: UnsafePointer<Float>, frames: Int) -> UnsafePointer<Float> {
        guard input.channels != output.channels else { return samples }
        let (inCount, outCount) = (input.channels, output.channels)
        let out = mapped.reserve(frames * outCount)
        do {
            for frame in 0..<frames {
                let from = samples + frame * inCount
                let to = out + frame * outCount
                if inCount == 1 {
                    // Mono: the same signal on the front pair (and nothing on surround channels).
                    for channel in 0..<outCount { to[channel] = channel < 2 ? from[0] : 0 }
                } else if outCount == 1 {
                    var sum: Float = 0
                    for channel in 0..<inCount { sum += from[channel] }
                    to[0] = sum / Float(inCount)
                } else {
                    for channel in 0..<outCount { to[channel] = channel < inCount ? from[channel] : 0 }
                }
            }
        }
        return UnsafePointer(out)
    }
}

/// A float buffer that only grows; freed with its owner.
struct GrowingBuffer: ~Copyable {
    private var storage: UnsafeMutablePointer<Float>?
    private var capacity = 0

    mutating func reserve(_ count: Int) -> UnsafeMutablePointer<Float> {
        if let storage, capacity >= count { return storage }
        storage?.deallocate()
        let grown = UnsafeMutablePointer<Float>.allocate(capacity: count)
        storage = grown
        capacity = count
        return grown
    }

    deinit { storage?.deallocate() }
}
