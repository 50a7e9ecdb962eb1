import ABPluginABI
import CFFmpeg
import PluginKit

/// One file decoded by FFmpeg, on the output timeline of StreamLength: read() hands out decoded
/// frames from `position` on, and seek() moves back with the demuxer, then decodes and drops up
/// to the exact frame (mpv's way). A frame's place comes from its timestamp only right after
/// the start or a seek; in between, frames follow each other (timestamps in milliseconds would
/// otherwise add rounding gaps).
final class FFmpegDecoder: DecoderInstance {
    let input: FFmpegInput
    let host: Host
    let lastError = LastError()
    let length: StreamLength
    let rate: Int
    let channels: Int
    private let packets: PacketDecoder
    private let converter: SampleConverter
    /// The first decoded frame's timestamp as frames, when after 0: the timeline starts there.
    private let origin: Int64

    /// The output frame the next read() returns.
    private var position: Int64 = 0
    /// Converted frames not handed out yet: `pendingFrames` from frame `pendingOffset` of the
    /// converter's samples; the first is at `position`.
    private var pendingOffset = 0
    private var pendingFrames = 0
    /// The output frame after the last one decoded.
    private var decodedEnd: Int64 = 0
    /// The next frame decoded takes its place from its timestamp (after the start or a seek).
    private var anchorNext = true
    /// Ogg, after the demuxer moved: the page the first frame came from, whose timestamps are not
    /// to be trusted (see `place`); nil once a frame of the next page has set the timeline.
    private var untrustedPage: Int64?
    /// The container stamps packets from its pages' granule positions (Ogg).
    private let pagedTimestamps: Bool
    private var finished = false
    private var endReported = false

    var totalFrames: Int64? { length.frames }
    var seekable: Bool { (input.format?.pointee.pb).map { $0.pointee.seekable != 0 } ?? false }

    /// Opens the stream and decodes its first frame: where it lies sets the timeline's origin.
    init(input: FFmpegInput, host: Host) throws(DecoderOpenError) {
        self.input = input
        self.host = host
        let parameters = input.parameters
        rate = Int(parameters.sample_rate)
        channels = Int(parameters.ch_layout.nb_channels)
        packets = try PacketDecoder(input: input, host: host)
        pagedTimestamps = input.format.flatMap { $0.pointee.iformat }.map { String(cString: $0.pointee.name) } == "ogg"
        converter = SampleConverter(rate: parameters.sample_rate, channels: parameters.ch_layout.nb_channels)
        abp_ffmpeg_deadline_arm(input.deadline, openSeconds)
        switch packets.next() {
        case .frame: break
        case .end: throw DecoderOpenError(ABP_ERR_FORMAT, "no \(input.codecName) audio could be decoded (truncated?)")
        case .failure(let status, let reason): throw DecoderOpenError(status, reason)
        }
        let stamp = packets.frame.pointee.best_effort_timestamp
        origin = stamp != abp_av_nopts_value() && stamp > 0 ? frames(ofTimestamp: stamp, input.stream.pointee.time_base, rate: rate) : 0
        length = StreamLength(format: input.format!, stream: input.stream, rate: parameters.sample_rate, origin: origin)
        if case .failure(let failure) = place() { throw DecoderOpenError(failure.status, failure.reason) }
    }

    // MARK: read

    func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int64) -> Int64 {
        guard maxFrames > 0 else { return lastError.fail(ABP_ERR_INVALID, "read asked for \(maxFrames) frames") }
        abp_ffmpeg_deadline_arm(input.deadline, readSeconds)
        var done = 0
        while done < Int(maxFrames) {
            if pendingFrames > 0 {
                let count = min(pendingFrames, Int(maxFrames) - done)
                (buffer + done * channels).update(from: converter.samples.baseAddress! + pendingOffset * channels, count: count * channels)
                pendingOffset += count
                pendingFrames -= count
                position += Int64(count)
                done += count
                continue
            }
            if let total = length.frames, position >= total { break }
            if finished {
                guard let total = length.frames, position < total, !endReported else { break }
                if !length.exact && total - position <= StreamLength.settleSlack(rate: rate) {
                    // The container's duration is rounded, or its last codec frame shorter: silence to it.
                    let count = min(Int(total - position), Int(maxFrames) - done)
                    (buffer + done * channels).update(repeating: 0, count: count * channels)
                    position += Int64(count)
                    done += count
                    continue
                }
                if done > 0 { break } // the frames first; the next read() says why they end
                endReported = true
                let why = packets.demuxerProblem.map { " (\($0))" } ?? ""
                return lastError.fail(ABP_ERR_FORMAT, "truncated: the audio ends at frame \(position) of \(total)\(why)")
            }
            switch packets.next() {
            case .frame:
                if case .failure(let failure) = place() { return done > 0 ? Int64(done) : fail(failure) }
            case .end:
                finished = true
            case .failure(let status, let reason):
                if done > 0 { return Int64(done) }
                finished = true
                endReported = true
                return lastError.fail(status, reason)
            }
        }
        return Int64(done)
    }

    private func fail(_ failure: ConversionFailure) -> Int64 {
        finished = true
        endReported = true
        return lastError.fail(failure.status, failure.reason)
    }

    /// Converts the frame just decoded and keeps what lies at or after `position` (and before the
    /// end). Returns where the frame starts on the output timeline (after a seek, a start past
    /// `position` means the demuxer landed late).
    private func place() -> Result<Int64, ConversionFailure> {
        let frame = packets.frame
        var start = decodedEnd
        // After an Ogg seek FFmpeg 5.1 stamps the packets of the first page from where its binary
        // search thought the page began, which depends on the seeks before (a FLAC page seen 9216
        // frames late after five seeks, right when sought to directly); the first packet of the
        // next page takes the previous page's granule position, which is exact: the timeline is
        // set again there.
        let page = frame.pointee.pkt_pos
        var anchor = anchorNext
        if let untrusted = untrustedPage {
            if anchorNext && page >= 0 {
                untrustedPage = page
            } else if page >= 0 && page != untrusted {
                untrustedPage = nil
                anchor = true
            }
        }
        if anchor {
            anchorNext = false
            let stamp = frame.pointee.best_effort_timestamp
            if stamp != abp_av_nopts_value() {
                start = frames(ofTimestamp: stamp, input.stream.pointee.time_base, rate: rate) - origin
            }
        }
        let converted: Int
        switch converter.convert(frame) {
        case .success(let count): converted = count
        case .failure(let failure): return .failure(failure)
        }
        decodedEnd = start + Int64(converted)
        let dropped = Int(max(0, min(Int64(converted), position - start)))
        var kept = converted - dropped
        if let total = length.frames { kept = Int(max(0, min(Int64(kept), total - position))) }
        pendingOffset = dropped
        pendingFrames = kept
        return .success(start)
    }

    // MARK: seek

    func seek(to target: Int64) -> abp_status {
        guard target >= 0, target <= (length.frames ?? .max) else {
            return lastError.fail(ABP_ERR_SEEK, "frame \(target) is outside the stream (0...\(length.frames.map(String.init) ?? "?"))")
        }
        abp_ffmpeg_deadline_arm(input.deadline, seekSeconds)
        pendingFrames = 0
        finished = false
        endReported = false
        if let total = length.frames, target == total {
            position = total
            finished = true
            return ABP_OK
        }
        // Back far enough for a fresh decoder to settle (Opus asks 80 ms, the MDCT codecs a
        // frame; Speex's pitch predictor carries the past: on speech, half a second before left
        // up to 7e-4 of difference, a second under 1e-10 at 129 places of a 20 s file), further
        // when the demuxer lands late; from the start when nothing else works.
        var preroll = Int64(input.parameters.seek_preroll) + Int64(rate)
        for attempt in 0..<4 {
            let from = target - preroll
            let fromStart = from <= 0 || attempt == 3
            if let failure = fromStart ? moveToStart() : moveDemuxer(to: from) {
                if fromStart { return failure }
                preroll *= 8
                continue
            }
            position = target
            switch decodeUpToPosition(landingCheck: !fromStart) {
            case .landed: return ABP_OK
            case .late: preroll *= 8
            case .failed(let status): return status
            }
        }
        return lastError.fail(ABP_ERR_SEEK, "seek to frame \(target) failed: the demuxer never landed before it")
    }

    private enum Landing { case landed, late, failed(abp_status) }

    /// After the demuxer moved: decodes until a frame reaches `position`, dropping what lies before.
    private func decodeUpToPosition(landingCheck: Bool) -> Landing {
        var first = true
        while true {
            switch packets.next() {
            case .frame:
                let placed = place()
                guard case .success(let start) = placed else {
                    if case .failure(let failure) = placed { return .failed(lastError.fail(failure.status, failure.reason)) }
                    return .failed(ABP_ERR_INTERNAL)
                }
                // A frame without a timestamp after a seek cannot say where it is: only a decode
                // from the start can (the first frame after moveToStart is at 0).
                if first && landingCheck && start > position { return .late }
                first = false
                if pendingFrames > 0 || (length.frames.map { position >= $0 } ?? false) {
                    // Frames kept before the timeline was set again may be misplaced: back further.
                    return untrustedPage == nil ? .landed : .late
                }
            case .end:
                // Past the decodable end (read() says so), unless where it ended is unknown.
                if untrustedPage != nil { return .late }
                finished = true
                return .landed
            case .failure(let status, let reason):
                return .failed(lastError.fail(status == ABP_ERR_IO ? ABP_ERR_IO : ABP_ERR_SEEK, reason))
            }
        }
    }

    private func moveDemuxer(to frame: Int64) -> abp_status? {
        let stream = input.stream.pointee
        let stamp = av_rescale_q(frame + origin, AVRational(num: 1, den: Int32(rate)), stream.time_base)
        let status = av_seek_frame(input.format, input.streamIndex, stamp, AVSEEK_FLAG_BACKWARD)
        guard status >= 0 else { return lastError.fail(ABP_ERR_SEEK, "FFmpeg cannot seek in this file: \(describe(averror: status))") }
        restart(anchoring: true)
        if pagedTimestamps { untrustedPage = -1 }
        // A first frame without a timestamp has no known place: it counts as landing late.
        decodedEnd = .max / 2
        return nil
    }

    /// To the first packet, by timestamp or else by byte 0 (a raw stream without an index).
    private func moveToStart() -> abp_status? {
        let start = input.stream.pointee.start_time
        var status = av_seek_frame(input.format, input.streamIndex, start != abp_av_nopts_value() ? start : 0, AVSEEK_FLAG_BACKWARD)
        if status < 0 { status = av_seek_frame(input.format, input.streamIndex, 0, AVSEEK_FLAG_BYTE) }
        guard status >= 0 else { return lastError.fail(ABP_ERR_SEEK, "FFmpeg cannot seek in this file: \(describe(averror: status))") }
        restart(anchoring: true)
        decodedEnd = 0
        return nil
    }

    private func restart(anchoring: Bool) {
        packets.restart()
        untrustedPage = nil
        pendingFrames = 0
        anchorNext = anchoring
        finished = false
    }
}

/// A timestamp in `timeBase` as frames at `rate`, rounded to the nearest.
func frames(ofTimestamp stamp: Int64, _ timeBase: AVRational, rate: Int) -> Int64 {
    av_rescale_q(stamp, timeBase, AVRational(num: 1, den: Int32(rate)))
}
