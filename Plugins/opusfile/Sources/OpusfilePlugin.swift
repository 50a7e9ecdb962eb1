// The Ogg Opus decoder, wrapping libopusfile. The library gives the exact length (pre-skip and
// end trimming applied), sample-exact seeks and the parsed OpusTags; this file maps them onto the
// ABI: the comments through VorbisComment (tags, CHAPTERnnn chapters, METADATA_BLOCK_PICTURE
// pictures), and every OP_* code into a status and a readable reason.
//
// Output is always 48 kHz float (Opus decodes at 48 kHz whatever the input rate was). A chained
// file whose links differ in channel count, or that has more than the ABI's 8 channels, is
// downmixed to stereo for its whole length with op_read_float_stereo: the ABI fixes the format at
// open, and a book glued together from mono and stereo parts should still play. Tags, chapters
// and pictures come from the first link.
public import ABPluginABI
import COpusfile
import PluginKit
import VorbisComment
#if canImport(Glibc)
import Glibc
#endif

private let pluginID = "opusfile"
private let opusRate: Int64 = 48_000

/// How far before a seek target decoding restarts. libopusfile pre-rolls the 80 ms the Opus
/// spec asks for, but the decoder has not settled by then: on test sweeps the first 100 ms after
/// a seek differed from a continuous decode by up to 0.26. Half a second more brings every seek
/// within 1.3e-5 of a continuous decode (below one 16-bit step; most seeks bit-identical), for
/// about 1.7 ms of extra decoding per seek (1 s: within 6e-8, 3.2 ms).
private let seekSettleFrames: Int64 = 24_000

private final class OpusfileDecoder: DecoderInstance {
    let file: OpaquePointer
    let host: Host
    let channels: Int
    /// The links differ in channel count (or have more than 8): every read downmixes to stereo.
    let downmix: Bool
    let seekable: Bool
    let totalFrames: Int64?
    /// For each output channel (SMPTE order), the channel libopusfile gives there (Vorbis order);
    /// nil when the orders agree (mono, stereo, quad, a downmix).
    let smpteOrder: [Int]?
    let lastError = LastError()
    /// One frame, while it is put in SMPTE order (preallocated: read() runs per chunk).
    private let frameScratch: UnsafeMutableBufferPointer<Float>
    /// Where seek() decodes the frames between its restart point and the target.
    private let scratch: UnsafeMutableBufferPointer<Float>
    private let scratchFrames = 5_760 // 120 ms, the longest Opus packet
    /// The output frame the next read() returns, and the silence still owed for a hole.
    private var position: Int64 = 0
    private var silenceOwed: Int64 = 0

    init(file: OpaquePointer, host: Host, channels: Int, downmix: Bool, seekable: Bool, totalFrames: Int64?, smpteOrder: [Int]?) {
        self.file = file
        self.host = host
        self.channels = channels
        self.downmix = downmix
        self.seekable = seekable
        self.totalFrames = totalFrames
        self.smpteOrder = smpteOrder
        scratch = .allocate(capacity: scratchFrames * channels)
        frameScratch = .allocate(capacity: channels)
    }

    deinit {
        op_free(file)
        scratch.deallocate()
        frameScratch.deallocate()
    }

    /// Puts `frames` interleaved frames from libopusfile's Vorbis order into the ABI's SMPTE order.
    private func reorder(_ buffer: UnsafeMutablePointer<Float>, frames: Int) {
        guard let smpteOrder else { return }
        for frame in 0..<frames {
            let samples = buffer + frame * channels
            for channel in 0..<channels { frameScratch[channel] = samples[channel] }
            for (output, input) in smpteOrder.enumerated() { samples[output] = frameScratch[input] }
        }
    }

    func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int64) -> Int64 {
        guard maxFrames > 0 else { return lastError.fail(ABP_ERR_INVALID, "read asked for \(maxFrames) frames") }
        // Each hole consumes data, so this ends; the cap only bounds the log on a garbage file.
        for _ in 0..<64 {
            if silenceOwed > 0 {
                let frames = min(maxFrames, silenceOwed)
                buffer.update(repeating: 0, count: Int(frames) * channels)
                silenceOwed -= frames
                position += frames
                return frames
            }
            // libopusfile counts floats in an Int32; ask for whole frames only.
            let size = Int32(min(maxFrames, Int64(Int32.max) / Int64(channels))) * Int32(channels)
            let result = downmix ? op_read_float_stereo(file, buffer, size) : op_read_float(file, buffer, size, nil)
            if result == OP_HOLE {
                // The audio of a lost or corrupt page is gone; silence of the same length keeps
                // later frames where the file's timestamps (seeks, chapters, the length) put them.
                let resumed = op_pcm_tell(file)
                if let totalFrames, resumed > position, resumed <= totalFrames { silenceOwed = resumed - position }
                host.log(ABP_LOG_WARNING, silenceOwed > 0
                    ? "a page is missing or corrupt: \(silenceOwed) frames replaced with silence"
                    : "a page is missing or corrupt: its audio is skipped")
                continue
            }
            guard result >= 0 else {
                let error = OpusfileError(code: result)
                return lastError.fail(error.status == ABP_ERR_IO ? ABP_ERR_IO : ABP_ERR_FORMAT, error.reason)
            }
            // Only an unseekable chained stream can change layout here (open checked every link
            // of a seekable one); the samples just written are in the wrong layout.
            let linkChannels = Int(op_channel_count(file, -1))
            if !downmix && linkChannels != channels {
                return lastError.fail(ABP_ERR_FORMAT, "a chained link changes from \(channels) to \(linkChannels) channels")
            }
            reorder(buffer, frames: Int(result))
            position += Int64(result)
            return Int64(result)
        }
        return lastError.fail(ABP_ERR_FORMAT, "too many holes in a row: the stream is badly damaged")
    }

    func seek(to frame: Int64) -> abp_status {
        guard seekable, let totalFrames else { return lastError.fail(ABP_ERR_SEEK, "the stream is not seekable") }
        guard (0...totalFrames).contains(frame) else {
            return lastError.fail(ABP_ERR_SEEK, "frame \(frame) is outside the stream (0...\(totalFrames))")
        }
        guard totalFrames > 0 else { return ABP_OK } // nothing to seek in; op_pcm_seek refuses 0 here
        // Restarting before the target also covers a seek to the very end, which op_pcm_seek
        // refuses (it only seeks to a frame that exists).
        let start = max(0, min(frame - seekSettleFrames, totalFrames - 1))
        let result = op_pcm_seek(file, start)
        guard result == 0 else {
            let error = OpusfileError(code: result)
            return lastError.fail(error.status == ABP_ERR_IO ? ABP_ERR_IO : ABP_ERR_SEEK, "seek failed: \(error.reason)")
        }
        position = start
        silenceOwed = 0
        var remaining = frame - start
        while remaining > 0 {
            let decoded = read(into: scratch.baseAddress!, maxFrames: min(remaining, Int64(scratchFrames)))
            guard decoded > 0 else {
                let reason = decoded == 0 ? "the stream ended early" : String(cString: lastError.pointer)
                return lastError.fail(decoded == Int64(ABP_ERR_IO.rawValue) ? ABP_ERR_IO : ABP_ERR_SEEK, "seek failed: \(reason)")
            }
            remaining -= decoded
        }
        return ABP_OK
    }
}

/// An ABI status with a one-line reason, for every OP_* code libopusfile returns.
private struct OpusfileError: DecoderOpenFailure {
    let status: abp_status
    let reason: String

    init(_ status: abp_status, _ reason: String) {
        self.status = status
        self.reason = reason
    }

    init(code: Int32) {
        switch code {
        case OP_FALSE: self.init(ABP_ERR_FORMAT, "too little data to tell whether this is Opus")
        case OP_EOF: self.init(ABP_ERR_FORMAT, "the stream ended unexpectedly")
        case OP_HOLE: self.init(ABP_ERR_FORMAT, "a page is missing or corrupt (a hole in the stream)")
        case OP_EREAD: self.init(ABP_ERR_IO, "reading the file failed")
        case OP_EFAULT: self.init(ABP_ERR_NOMEM, "libopusfile ran out of memory or hit an internal error")
        case OP_EIMPL: self.init(ABP_ERR_UNSUPPORTED, "the stream uses a feature libopusfile does not implement (such as its channel mapping family)")
        case OP_EINVAL: self.init(ABP_ERR_INTERNAL, "libopusfile rejected the request (the stream is only partly open)")
        case OP_ENOTFORMAT: self.init(ABP_ERR_FORMAT, "not an Ogg Opus stream")
        case OP_EBADHEADER: self.init(ABP_ERR_FORMAT, "a broken Opus header (OpusHead or OpusTags is malformed or missing)")
        case OP_EVERSION: self.init(ABP_ERR_UNSUPPORTED, "the OpusHead version is newer than libopusfile understands")
        case OP_ENOTAUDIO: self.init(ABP_ERR_FORMAT, "the stream holds no audio")
        case OP_EBADPACKET: self.init(ABP_ERR_FORMAT, "an audio packet failed to decode")
        case OP_EBADLINK: self.init(ABP_ERR_FORMAT, "the stream is damaged: data seen before could not be found again")
        case OP_ENOSEEK: self.init(ABP_ERR_SEEK, "the stream is not seekable")
        case OP_EBADTIMESTAMP: self.init(ABP_ERR_FORMAT, "a link's first or last timestamp (granule position) is invalid")
        default: self.init(ABP_ERR_INTERNAL, "libopusfile error \(code)")
        }
    }
}

private func errnoText() -> String { String(cString: strerror(errno)) }

private func openOpusFile(host: Host, path: UnsafePointer<CChar>) throws(OpusfileError) -> OpusfileDecoder {
    // Looked at ourselves first: op_open_file says only OP_EFAULT for a missing file, and its
    // OP_EBADHEADER does not say which header is broken. Only a regular file's head is read here:
    // from a pipe, that would take the bytes op_open_file needs.
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw OpusfileError(ABP_ERR_IO, "cannot open the file: \(errnoText())") }
    var status = stat()
    var head = [UInt8](repeating: 0, count: 4096)
    let isStat = fstat(fd, &status) == 0
    let kind = status.st_mode & S_IFMT
    let headCount = !isStat ? -1 : kind == S_IFREG ? read(fd, &head, head.count) : 0
    let reason = headCount < 0 ? errnoText() : ""
    close(fd)
    if kind == S_IFDIR { throw OpusfileError(ABP_ERR_IO, "it is a directory, not a file") }
    guard headCount >= 0 else { throw OpusfileError(ABP_ERR_IO, "cannot read the file: \(reason)") }
    guard kind != S_IFREG || headCount > 0 else { throw OpusfileError(ABP_ERR_FORMAT, "the file is empty") }

    var code: Int32 = 0
    guard let file = op_open_file(path, &code) else {
        throw diagnose(code, head: head[..<headCount])
    }
    let linkCount = op_link_count(file)
    let linkChannels = Set((0..<max(linkCount, 1)).map { Int(op_channel_count(file, $0)) })
    let firstChannels = Int(op_channel_count(file, 0))
    let downmix = linkChannels.count > 1 || firstChannels > 8
    if downmix {
        host.log(ABP_LOG_INFO, "channel counts \(linkChannels.sorted()) across \(linkCount) links: downmixing the whole file to stereo")
    }
    let seekable = op_seekable(file) != 0
    let total = seekable ? op_pcm_total(file, -1) : -1
    let family = op_head(file, 0).map { Int($0.pointee.mapping_family) }
    return OpusfileDecoder(
        file: file, host: host, channels: downmix ? 2 : firstChannels, downmix: downmix,
        seekable: seekable && total >= 0, totalFrames: total >= 0 ? total : nil,
        smpteOrder: downmix || family != 1 ? nil : vorbisToSMPTE[firstChannels])
}

/// Turns op_open_file's code into the most specific reason the file's first bytes allow.
private func diagnose(_ code: Int32, head: ArraySlice<UInt8>) -> OpusfileError {
    let bytes = Array(head)
    let idHeaderResult = bytes.withUnsafeBufferPointer { op_test(nil, $0.baseAddress, $0.count) }
    switch code {
    case OP_ENOTFORMAT where !bytes.starts(with: Array("OggS".utf8)):
        return OpusfileError(ABP_ERR_FORMAT, "not an Ogg file (it does not start with an Ogg page)")
    case OP_ENOTFORMAT:
        return idHeaderResult == OP_FALSE
            ? OpusfileError(ABP_ERR_FORMAT, "the file ends inside its first Ogg page (truncated)")
            : OpusfileError(ABP_ERR_UNSUPPORTED, "an Ogg file without an Opus stream")
    case OP_EBADHEADER:
        // op_test parses only the ID header: if that passes, the comment header is the broken one.
        return idHeaderResult == 0
            ? OpusfileError(ABP_ERR_FORMAT, "broken OpusTags header (the comment block is malformed or missing)")
            : OpusfileError(ABP_ERR_FORMAT, "broken OpusHead header (the ID header is malformed)")
    case OP_EREAD:
        return OpusfileError(ABP_ERR_FORMAT, "the file ends or breaks off before its headers are complete")
    default:
        return OpusfileError(code: code)
    }
}

// MARK: - Metadata

/// The first link's comments, as byte ranges of libopusfile's OpusTags.
private func comments(_ tags: UnsafePointer<OpusTags>) -> [UnsafeRawBufferPointer] {
    (0..<Int(tags.pointee.comments)).compactMap { index in
        tags.pointee.user_comments[index].map {
            UnsafeRawBufferPointer(start: $0, count: Int(tags.pointee.comment_lengths[index]))
        }
    }
}

// MARK: - Probe

/// "OggS" at 0 and a first packet "OpusHead" in the first page (RFC 7845: the ID header is alone
/// on the stream's first page) -> 100; only the .opus extension -> 10. An .ogg or .oga file is
/// claimed only by its content: by name it is more likely Vorbis.
private func probe(path: UnsafePointer<CChar>?, head: UnsafeBufferPointer<UInt8>) -> Int32 {
    if head.count >= 27, head.starts(with: "OggS".utf8) {
        let payload = 27 + Int(head[26])
        if head.count >= payload + 8, head[payload..<payload + 8].elementsEqual("OpusHead".utf8) { return 100 }
    }
    return extensionScore(path: path, extensions: ["opus"])
}

// MARK: - The plugin

/// The ops table, built once into the descriptor (a global C struct is not Sendable).
private func makeOps() -> abp_decoder_ops {
    decoderOps(
        probe: { path, head, length in
            probe(path: path, head: UnsafeBufferPointer(start: head, count: head == nil ? 0 : length))
        },
        open: { hostAPI, path, _, _, metadata, out, info, error, errorSize in
            openDecoder(path: path, out: out, info: info, error: error, errorSize: errorSize) { (path: String) throws(OpusfileError) in
                let host = Host(hostAPI, pluginID: pluginID, subject: path)
                let decoder = try openOpusFile(host: host, path: path)
                if let metadata, let tags = op_tags(decoder.file, 0) {
                    VorbisComments(MetadataCallbacks(metadata), rate: opusRate, totalFrames: decoder.totalFrames, host: host)
                        .report(comments(tags))
                }
                return OpenedDecoder(decoder, format: abp_format(rate: UInt32(opusRate), channels: UInt32(decoder.channels)),
                                     totalFrames: decoder.totalFrames ?? ABP_FRAMES_UNKNOWN, seekable: decoder.seekable, codec: "Opus")
            }
        }
    )
}

private let descriptor = PluginDescriptor(
    id: pluginID, name: "Opus (libopusfile)", version: "1.0.0",
    description: "Ogg Opus with exact length and seeks, tags, CHAPTERnnn chapters and cover pictures",
    capabilities: ABP_CAP_SEEK | ABP_CAP_GAPLESS | ABP_CAP_TAGS | ABP_CAP_CHAPTERS | ABP_CAP_PICTURES,
    extensions: ["opus", "ogg", "oga"], mimeTypes: ["audio/ogg", "audio/opus"],
    decoder: makeOps()
)

@_cdecl("abplayer_plugin_entry")
public func abplayerPluginEntry(_ host: UnsafePointer<abp_host_api>?) -> UnsafePointer<abp_plugin>? {
    descriptor.entry(for: host)
}
