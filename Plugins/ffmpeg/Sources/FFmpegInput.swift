import ABPluginABI
import CFFmpeg
import PluginKit
#if canImport(Glibc)
import Glibc
#endif

/// FFmpeg's text for an AVERROR code, lower-cased as our reasons are.
func describe(averror code: Int32) -> String {
    var text = [CChar](repeating: 0, count: 128)
    guard av_strerror(code, &text, text.count) == 0 else { return "FFmpeg error \(code)" }
    let message = text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    return message.prefix(1).lowercased() + message.dropFirst()
}

/// The demuxers the catch-all opens files with: audio containers and streams. FFmpeg would
/// otherwise also read a text file as ANSI art (tty), a picture (image2) or a playlist that opens
/// other files or URLs (hls, concat): hostile input must not get that far.
private let audioDemuxers = [
    "wav", "w64", "aiff", "caf", "mov", "asf", "matroska", "ogg", "wv", "ape", "mpc", "mpc8", "tta", "tak", "shn",
    "ac3", "eac3", "dts", "truehd", "mlp", "au", "dsf", "iff", "flac", "mp3", "aac", "amr", "voc", "xwma",
].joined(separator: ",")

/// How long open may take, probing and reading the stream's headers included, before FFmpeg is
/// interrupted: a hostile file must not hang the import or the player.
let openSeconds = 20.0

/// An opened demuxer and decoder on the best audio stream of a file. Owns them; freed in deinit.
final class FFmpegInput {
    private(set) var format: UnsafeMutablePointer<AVFormatContext>?
    private(set) var codec: UnsafeMutablePointer<AVCodecContext>?
    let streamIndex: Int32
    let stream: UnsafeMutablePointer<AVStream>
    /// The interrupt callback's deadline, armed before each blocking call.
    let deadline: UnsafeMutablePointer<abp_ffmpeg_deadline>

    var codecName: String { String(cString: avcodec_get_name(stream.pointee.codecpar.pointee.codec_id)) }
    var parameters: AVCodecParameters { stream.pointee.codecpar.pointee }

    init(path: String) throws(DecoderOpenError) {
        guard abp_ffmpeg_load() else { throw DecoderOpenError(ABP_ERR_UNSUPPORTED, String(cString: abp_ffmpeg_load_error())) }
        try Self.checkRegularFile(path)
        // Everything is opened into locals first: a throwing init whose stored properties are all
        // set runs deinit, which would free them a second time.
        let deadline = UnsafeMutablePointer<abp_ffmpeg_deadline>.allocate(capacity: 1)
        deadline.initialize(to: abp_ffmpeg_deadline())
        var opened = avformat_alloc_context()
        guard let context = opened else {
            deadline.deallocate()
            throw DecoderOpenError(ABP_ERR_NOMEM, "out of memory")
        }
        context.pointee.interrupt_callback = AVIOInterruptCB(callback: abp_ffmpeg_deadline_passed, opaque: UnsafeMutableRawPointer(deadline))
        var options: OpaquePointer?
        av_dict_set(&options, "protocol_whitelist", "file", 0)
        av_dict_set(&options, "format_whitelist", audioDemuxers, 0)
        abp_ffmpeg_deadline_arm(deadline, openSeconds)
        let status = avformat_open_input(&opened, path, nil, &options)
        av_dict_free(&options)
        guard status >= 0, opened != nil else {
            deadline.deallocate() // avformat_open_input freed the context
            throw Self.openFailure(status)
        }
        let found: (index: Int32, stream: UnsafeMutablePointer<AVStream>)
        let decoder: UnsafeMutablePointer<AVCodecContext>
        do throws(DecoderOpenError) {
            found = try Self.audioStream(in: opened!, deadline: deadline)
            decoder = try Self.openDecoder(for: found.stream)
        } catch {
            avformat_close_input(&opened)
            deadline.deallocate()
            throw error
        }
        self.deadline = deadline
        streamIndex = found.index
        stream = found.stream
        format = opened
        codec = decoder
    }

    deinit {
        avcodec_free_context(&codec)
        avformat_close_input(&format)
        deadline.deallocate()
    }

    /// A fresh decoder in place of the one that has decoded: after the demuxer moved (a seek).
    /// avcodec_flush_buffers alone is not enough: some of libavcodec's decoders have no flush
    /// (Speex in FFmpeg 5.1 keeps its filter memories and its first-frame state), so the audio
    /// after a seek would depend on what was decoded before it. False when the new one cannot be
    /// opened (out of memory): the old one is flushed and kept.
    @discardableResult
    func reopenDecoder() -> Bool {
        guard let fresh = try? Self.openDecoder(for: stream) else {
            if let codec { avcodec_flush_buffers(codec) }
            return false
        }
        avcodec_free_context(&codec)
        codec = fresh
        return true
    }

    /// Looked at ourselves: FFmpeg opens a directory as an empty file and says only "invalid data".
    private static func checkRegularFile(_ path: String) throws(DecoderOpenError) {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw DecoderOpenError(ABP_ERR_IO, "cannot open the file: \(String(cString: strerror(errno)))")
        }
        if status.st_mode & S_IFMT == S_IFDIR { throw DecoderOpenError(ABP_ERR_IO, "it is a directory, not a file") }
        if status.st_mode & S_IFMT == S_IFREG && status.st_size == 0 { throw DecoderOpenError(ABP_ERR_FORMAT, "the file is empty") }
    }

    private static func openFailure(_ status: Int32) -> DecoderOpenError {
        switch status {
        case -ENOENT, -EACCES, -EISDIR, -EIO:
            return DecoderOpenError(ABP_ERR_IO, "cannot open the file: \(describe(averror: status))")
        case abp_averror_enomem(): return DecoderOpenError(ABP_ERR_NOMEM, "out of memory")
        case abp_averror_exit(): return DecoderOpenError(ABP_ERR_FORMAT, "FFmpeg gave up reading its headers after \(Int(openSeconds)) s")
        case abp_averror_invaliddata(): return DecoderOpenError(ABP_ERR_FORMAT, "not an audio format FFmpeg recognises")
        default: return DecoderOpenError(ABP_ERR_FORMAT, "FFmpeg cannot read it: \(describe(averror: status))")
        }
    }

    /// The best audio stream (FFmpeg's choice: the default one, else the most channels), with
    /// every other stream discarded so the demuxer skips their packets.
    private static func audioStream(in context: UnsafeMutablePointer<AVFormatContext>,
                                    deadline: UnsafeMutablePointer<abp_ffmpeg_deadline>) throws(DecoderOpenError) -> (Int32, UnsafeMutablePointer<AVStream>) {
        abp_ffmpeg_deadline_arm(deadline, openSeconds)
        let found = avformat_find_stream_info(context, nil)
        if found == abp_averror_exit() { throw DecoderOpenError(ABP_ERR_FORMAT, "FFmpeg gave up reading its streams after \(Int(openSeconds)) s") }
        if found < 0 { throw DecoderOpenError(ABP_ERR_FORMAT, "its streams cannot be read: \(describe(averror: found))") }
        let index = av_find_best_stream(context, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        guard index >= 0, let stream = context.pointee.streams[Int(index)] else {
            let kind = String(cString: context.pointee.iformat.pointee.name).split(separator: ",").first.map(String.init) ?? "file"
            throw DecoderOpenError(ABP_ERR_FORMAT, "this \(kind) file has no audio stream")
        }
        for other in 0..<Int(context.pointee.nb_streams) where other != Int(index) {
            context.pointee.streams[other]?.pointee.discard = AVDISCARD_ALL
        }
        return (index, stream)
    }

    private static func openDecoder(for stream: UnsafeMutablePointer<AVStream>) throws(DecoderOpenError) -> UnsafeMutablePointer<AVCodecContext> {
        let parameters = stream.pointee.codecpar!
        let name = String(cString: avcodec_get_name(parameters.pointee.codec_id))
        guard let decoder = avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw DecoderOpenError(ABP_ERR_UNSUPPORTED, "this FFmpeg has no decoder for its audio (\(name))")
        }
        var codec = avcodec_alloc_context3(decoder)
        guard let context = codec else { throw DecoderOpenError(ABP_ERR_NOMEM, "out of memory") }
        var status = avcodec_parameters_to_context(context, parameters)
        // The packets' time base: libavcodec moves a frame's timestamp by the samples it skips
        // (encoder delay) in it.
        context.pointee.pkt_timebase = stream.pointee.time_base
        // One thread: a book decodes far faster than it plays, and threads would cost every open.
        context.pointee.thread_count = 1
        if status >= 0 { status = avcodec_open2(context, decoder, nil) }
        guard status >= 0 else {
            avcodec_free_context(&codec)
            throw DecoderOpenError(ABP_ERR_UNSUPPORTED, "FFmpeg's \(name) decoder refuses its audio: \(describe(averror: status))")
        }
        let rate = parameters.pointee.sample_rate, channels = parameters.pointee.ch_layout.nb_channels
        guard rate > 0, rate <= 768_000, (1...8).contains(channels) else {
            avcodec_free_context(&codec)
            throw DecoderOpenError(ABP_ERR_UNSUPPORTED, "unsupported format: \(name), \(rate) Hz, \(channels) channels")
        }
        return context
    }
}
