import ABPluginABI
import CFFmpeg

/// Decoded frames (any sample format, planar or not, FFmpeg's channel order) to interleaved
/// float in the ABI's order, through libswresample at the source's own rate: no resampling, only
/// the format and, for more than two channels, the order (FFmpeg's native order for the default
/// layout of a channel count is the WAV/SMPTE order the ABI uses).
final class SampleConverter {
    let rate: Int32
    let channels: Int32
    private var resampler: OpaquePointer?
    /// What `resampler` was made for; a stream that changes format mid-way gets a new one.
    private var inputFormat: Int32 = -1
    private var inputLayout = AVChannelLayout()
    /// The converted frames, interleaved; grown to the largest frame seen.
    private(set) var samples: UnsafeMutableBufferPointer<Float> = .init(start: nil, count: 0)

    init(rate: Int32, channels: Int32) {
        self.rate = rate
        self.channels = channels
    }

    deinit {
        swr_free(&resampler)
        av_channel_layout_uninit(&inputLayout)
        samples.deallocate()
    }

    /// Converts `frame` into `samples`; the frame count, or why not.
    func convert(_ frame: UnsafeMutablePointer<AVFrame>) -> Result<Int, ConversionFailure> {
        let count = Int(frame.pointee.nb_samples)
        guard frame.pointee.sample_rate == rate || frame.pointee.sample_rate == 0 else {
            return .failure(ConversionFailure(status: ABP_ERR_UNSUPPORTED, reason: "the sample rate changes mid-stream (\(rate) -> \(frame.pointee.sample_rate) Hz)"))
        }
        guard frame.pointee.ch_layout.nb_channels == channels else {
            return .failure(ConversionFailure(status: ABP_ERR_UNSUPPORTED, reason: "the channel count changes mid-stream (\(channels) -> \(frame.pointee.ch_layout.nb_channels))"))
        }
        if let failure = prepare(for: frame) { return .failure(failure) }
        if samples.count < count * Int(channels) {
            samples.deallocate()
            samples = .allocate(capacity: count * Int(channels))
        }
        var output: UnsafeMutablePointer<UInt8>? = UnsafeMutableRawPointer(samples.baseAddress!).assumingMemoryBound(to: UInt8.self)
        let input = UnsafeMutableRawPointer(frame.pointee.extended_data).assumingMemoryBound(to: UnsafePointer<UInt8>?.self)
        let converted = swr_convert(resampler, &output, Int32(count), input, Int32(count))
        guard converted >= 0 else {
            return .failure(ConversionFailure(status: ABP_ERR_INTERNAL, reason: "libswresample failed: \(describe(averror: converted))"))
        }
        return .success(Int(converted))
    }

    private func prepare(for frame: UnsafeMutablePointer<AVFrame>) -> ConversionFailure? {
        let sameLayout = frame.pointee.ch_layout.order == inputLayout.order && frame.pointee.ch_layout.u.mask == inputLayout.u.mask
        if resampler != nil, frame.pointee.format == inputFormat, sameLayout { return nil }
        swr_free(&resampler)
        av_channel_layout_uninit(&inputLayout)
        // A layout with no order (channels only) is taken as the default one for its count.
        if frame.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC {
            av_channel_layout_default(&inputLayout, channels)
        } else if av_channel_layout_copy(&inputLayout, &frame.pointee.ch_layout) < 0 {
            return ConversionFailure(status: ABP_ERR_NOMEM, reason: "out of memory")
        }
        var outputLayout = AVChannelLayout()
        av_channel_layout_default(&outputLayout, channels)
        defer { av_channel_layout_uninit(&outputLayout) }
        inputFormat = frame.pointee.format
        let sampleFormat = AVSampleFormat(rawValue: inputFormat)
        var status = swr_alloc_set_opts2(&resampler, &outputLayout, AV_SAMPLE_FMT_FLT, rate, &inputLayout, sampleFormat, rate, 0, nil)
        if status >= 0 { status = swr_init(resampler) }
        guard status >= 0 else {
            swr_free(&resampler)
            let name = av_get_sample_fmt_name(sampleFormat).map { String(cString: $0) } ?? "format \(inputFormat)"
            return ConversionFailure(status: ABP_ERR_UNSUPPORTED, reason: "libswresample cannot convert \(name) samples: \(describe(averror: status))")
        }
        return nil
    }
}

struct ConversionFailure: Error {
    let status: abp_status
    let reason: String
}
