import ABPluginABI
import CFFmpeg
import PluginKit

/// What the next step of decoding gave.
enum DecodeStep {
    /// A frame is in `frame`.
    case frame
    /// The stream ended (the demuxer's end, or damage it cannot read past, and the decoder drained).
    case end
    case failure(abp_status, String)
}

/// libavcodec's send/receive loop over the demuxer's packets of one stream: one decoded frame at
/// a time, damaged packets skipped (said once), and every loop bounded so a hostile file ends.
final class PacketDecoder {
    let input: FFmpegInput
    let host: Host
    let frame: UnsafeMutablePointer<AVFrame>
    private let packet: UnsafeMutablePointer<AVPacket>
    /// A packet the decoder did not take yet (it had frames to give first).
    private var holdsPacket = false
    private var demuxerEnded = false
    /// Why the demuxer stopped before the end of the file, when it did.
    private(set) var demuxerProblem: String?
    private var damagedInARow = 0
    private var damageLogged = false
    /// The first damage, said once a few frames decode after it: a file that just ends inside
    /// a packet (a cut download; ASF leaves a damaged packet or two before its end) gets one
    /// line, read()'s "truncated", not a warning too.
    private var unsaidDamage: String?
    private var framesSinceDamage = 0

    /// Packets in a row that give no audio, or damaged ones, before the file counts as unreadable:
    /// far more than any codec's priming, far fewer than a hostile file could loop through.
    private static let packetsWithoutAudioLimit = 20_000
    private static let damagedInARowLimit = 500

    init(input: FFmpegInput, host: Host) throws(DecoderOpenError) {
        self.input = input
        self.host = host
        guard let frame = av_frame_alloc() else { throw DecoderOpenError(ABP_ERR_NOMEM, "out of memory") }
        guard let packet = av_packet_alloc() else {
            var unused: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&unused)
            throw DecoderOpenError(ABP_ERR_NOMEM, "out of memory")
        }
        self.frame = frame
        self.packet = packet
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&frame)
        var packet: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&packet)
    }

    /// Forgets everything decoded or read ahead: after the demuxer moved (a seek).
    func restart() {
        if holdsPacket { av_packet_unref(packet) }
        holdsPacket = false
        demuxerEnded = false
        demuxerProblem = nil
        damagedInARow = 0
        input.reopenDecoder()
    }

    /// Decodes the next frame into `frame`. Blocks (file I/O).
    func next() -> DecodeStep {
        var packetsWithoutAudio = 0
        while true {
            av_frame_unref(frame)
            let received = avcodec_receive_frame(input.codec, frame)
            if received >= 0 {
                damagedInARow = 0
                if let unsaidDamage {
                    framesSinceDamage += 1
                    if framesSinceDamage >= 8 {
                        host.log(ABP_LOG_WARNING, unsaidDamage)
                        self.unsaidDamage = nil
                    }
                }
                return .frame
            }
            if received == abp_averror_eof() { return .end }
            if received != abp_averror_eagain() {
                if let failure = damaged(received) { return failure }
                continue
            }
            if demuxerEnded { return .end }
            if !holdsPacket {
                let read = av_read_frame(input.format, packet)
                if read == abp_averror_exit() {
                    return .failure(ABP_ERR_IO, "reading the file stalled: FFmpeg was interrupted after \(Int(readSeconds)) s")
                }
                if read < 0 {
                    // The end, or damage the demuxer cannot get past: what the decoder holds still plays.
                    if read != abp_averror_eof() { demuxerProblem = describe(averror: read) }
                    demuxerEnded = true
                    avcodec_send_packet(input.codec, nil)
                    continue
                }
                guard packet.pointee.stream_index == input.streamIndex else {
                    av_packet_unref(packet)
                    continue
                }
                packetsWithoutAudio += 1
                if packetsWithoutAudio > Self.packetsWithoutAudioLimit {
                    av_packet_unref(packet)
                    return .failure(ABP_ERR_FORMAT, "\(Self.packetsWithoutAudioLimit) packets in a row decode to no audio")
                }
            }
            let sent = avcodec_send_packet(input.codec, packet)
            if sent == abp_averror_eagain() {
                holdsPacket = true
                continue
            }
            holdsPacket = false
            av_packet_unref(packet)
            if sent < 0, let failure = damaged(sent) { return failure }
        }
    }

    /// A packet or frame the decoder refused: skipped and said once, unless nothing decodes at all.
    private func damaged(_ code: Int32) -> DecodeStep? {
        damagedInARow += 1
        if damagedInARow > Self.damagedInARowLimit {
            return .failure(ABP_ERR_FORMAT, "the \(input.codecName) audio cannot be decoded: \(describe(averror: code))")
        }
        if !damageLogged {
            damageLogged = true
            framesSinceDamage = 0
            unsaidDamage = "damaged \(input.codecName) audio skipped (\(describe(averror: code))); further damage not logged"
        }
        return nil
    }
}

/// How long one read() or seek() may keep FFmpeg reading before it is interrupted (a stalled
/// network mount, a hostile file): far more than decoding a chunk or decoding up to a seek target
/// ever takes here.
let readSeconds = 30.0
let seekSeconds = 120.0
