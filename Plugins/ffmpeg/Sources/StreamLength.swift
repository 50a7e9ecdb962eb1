import CFFmpeg

/// How long a stream is, in output frames, and how far its length and timestamps can be trusted.
///
/// The output timeline starts at the first decoded sample, as ffmpeg plays a file: encoder delay
/// the container declares is trimmed by libavcodec (AV_PKT_DATA_SKIP_SAMPLES side data, which
/// the demuxers derive from an edit list, an Opus pre-skip or Matroska's CodecDelay), and what
/// still lies before timestamp 0 (a negative start, as Ogg Speex has) is dropped. A first frame
/// stamped after 0 (Matroska stamps Vorbis 3 ms late, ASF its first WMA frame later still) is
/// frame 0 all the same: its timestamp is the `origin` every other one is counted from.
struct StreamLength {
    /// The frames to play, or nil when the container does not say.
    let frames: Int64?
    /// Timestamps count samples (the time base is 1/rate or a fraction of it): a seek lands on
    /// the exact frame. Otherwise (Matroska's and ASF's milliseconds, a raw stream's 90 kHz clock
    /// estimated from its bit rate) seeks land within the timestamps' precision.
    let sampleExact: Bool
    /// The length comes from a sample count in the container (a WAV's data size, an MP4's sample
    /// table, an Ogg granule position, a WavPack header): ending earlier is a cut file. Otherwise
    /// it is the container's rounded duration or an estimate, and the decode may end a little
    /// before it (see `settleSlack`).
    let exact: Bool

    /// `origin`: the first decoded frame's timestamp as frames, when after 0.
    init(format: UnsafeMutablePointer<AVFormatContext>, stream: UnsafeMutablePointer<AVStream>, rate: Int32, origin: Int64) {
        let timeBase = stream.pointee.time_base
        sampleExact = timeBase.num == 1 && timeBase.den > 0 && timeBase.den % rate == 0
        let output = AVRational(num: 1, den: rate)
        let nothing = abp_av_nopts_value()
        let estimated = format.pointee.duration_estimation_method == AVFMT_DURATION_FROM_BITRATE
        // The end is the start plus the duration (Ogg's start lies before 0 by the pre-roll
        // the demuxer found, and its duration counts from there).
        if stream.pointee.duration != nothing, stream.pointee.duration > 0, sampleExact, !estimated {
            let start = stream.pointee.start_time != nothing ? stream.pointee.start_time : 0
            // Ogg Opus: FFmpeg's start time is the first granule position before the pre-skip
            // is taken off, the packets' timestamps after it (the first is -pre-skip): the end
            // lies the pre-skip before start + duration, where opusfile ends it.
            let oggName = format.pointee.iformat.map { String(cString: $0.pointee.name) }
            let preSkip = oggName == "ogg" ? Int64(stream.pointee.codecpar.pointee.initial_padding) : 0
            frames = max(0, av_rescale_q(start + stream.pointee.duration - preSkip, timeBase, output) - origin)
            exact = true
        } else if format.pointee.duration != nothing, format.pointee.duration > 0 {
            let start = format.pointee.start_time != nothing ? format.pointee.start_time : 0
            // ASF stamps its first packet late (92 ms in ffmpeg's files, 85 ms in Windows Media
            // Encoder's) while the samples decoded from it run from 0 to the stated duration, and
            // one frame more comes out of the decoder after the last stamp: counted from the
            // first stamp, the length would cut the last 46-85 ms of speech. Counted from 0 it
            // is the decode's own length (silence-1.wma: 178176 of 178176) or a frame past it,
            // which the end's silence fills (`settleSlack`).
            let asf = format.pointee.iformat.map { String(cString: $0.pointee.name) } == "asf"
            frames = max(0, av_rescale_q(start + format.pointee.duration, abp_av_time_base_q(), output) - (asf ? 0 : origin))
            exact = false
        } else {
            frames = nil
            exact = false
        }
    }

    /// How far before a stated length an inexact one may end without being cut: a container's
    /// duration rounded to milliseconds, a codec's last frame (an AC-3 frame is 32 ms). The
    /// frames missing are silence; more missing is a cut file, and said.
    static func settleSlack(rate: Int) -> Int64 { Int64(rate / 20) }
}
