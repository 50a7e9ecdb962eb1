// The Ogg Vorbis decoder, wrapping libvorbisfile. The library gives the exact length (the first
// granule and the last page's end trimming applied), sample-exact seeks (ov_pcm_seek decodes the
// overlap before the target, so a seek's audio equals a continuous decode) and the parsed
// comments; this file maps them onto the ABI: the comments through VorbisComment, channels into
// SMPTE order, and every OV_* code into a status and a readable reason.
//
// The format is the first link's and fixed at open (the ABI's rule). A chained file whose later
// links differ still plays: a different channel count is folded into the first link's (mono
// spread, or channels dropped or averaged), a different rate plays at the first link's rate
// (wrong pitch, said once in the log). Tags, chapters and pictures come from the first link.
public import ABPluginABI
import CVorbisfile
import PluginKit
import VorbisComment
#if canImport(Glibc)
import Glibc
#endif

private let pluginID = "vorbisfile"

private final class VorbisfileDecoder: DecoderInstance {
    let file: UnsafeMutablePointer<OggVorbis_File>
    let host: Host
    let channels: Int
    let rate: Int
    let seekable: Bool
    let totalFrames: Int64?
    /// For each output channel (SMPTE order), the channel libvorbisfile gives there; nil when the
    /// orders agree (mono, stereo, quad).
    let smpteOrder: [Int]?
    let lastError = LastError()
    /// A seek to the very end: ov_pcm_seek refuses it (it seeks only to a frame that exists).
    private var atEnd = false
    /// The link last read, so a change of layout is logged once per link.
    private var currentLink: Int32 = 0

    init(file: UnsafeMutablePointer<OggVorbis_File>, host: Host, channels: Int, rate: Int, seekable: Bool, totalFrames: Int64?) {
        self.file = file
        self.host = host
        self.channels = channels
        self.rate = rate
        self.seekable = seekable
        self.totalFrames = totalFrames
        smpteOrder = vorbisToSMPTE[channels]
    }

    deinit {
        ov_clear(file)
        file.deallocate()
    }

    func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int64) -> Int64 {
        guard maxFrames > 0 else { return lastError.fail(ABP_ERR_INVALID, "read asked for \(maxFrames) frames") }
        if let failure = pendingFailure {
            pendingFailure = nil
            return lastError.fail(failure.status, failure.reason)
        }
        if atEnd { return 0 }
        // The whole request from as many packets as it takes: a Vorbis packet is 64–1024 frames,
        // and the host's work (its DSP chain, the ring buffer) is paid per call.
        var done: Int64 = 0
        var holes = 0
        while done < maxFrames {
            var planes: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>?
            var link: Int32 = 0
            let result = ov_read_float(file, &planes, Int32(min(maxFrames - done, 1 << 20)), &link)
            if result == OV_HOLE {
                // Each hole consumes data, so this ends; the cap only bounds the log on a garbage file.
                holes += 1
                guard holes < 64 else { return finish(done, ABP_ERR_FORMAT, "too many holes in a row: the stream is badly damaged") }
                host.log(ABP_LOG_WARNING, "a page is missing or corrupt: its audio is skipped")
                continue
            }
            guard result >= 0 else {
                let error = VorbisfileError(code: Int32(result))
                return finish(done, error.status == ABP_ERR_IO ? ABP_ERR_IO : ABP_ERR_FORMAT, error.reason)
            }
            guard result > 0, let planes else { break }
            let linkChannels = Int(ov_info(file, link)?.pointee.channels ?? Int32(channels))
            if link != currentLink {
                currentLink = link
                if linkChannels != channels {
                    host.log(ABP_LOG_WARNING, "chained link \(link) has \(linkChannels) channels: folded into \(channels)")
                }
            }
            let frames = Int(result)
            let output = buffer + Int(done) * channels
            if linkChannels == channels {
                for channel in 0..<channels {
                    guard let plane = planes[smpteOrder?[channel] ?? channel] else { continue }
                    for frame in 0..<frames { output[frame * channels + channel] = plane[frame] }
                }
            } else {
                fold(planes, linkChannels: linkChannels, frames: frames, into: output)
            }
            done += Int64(frames)
        }
        return done
    }

    /// A failure after some frames were decoded: those are returned now, the failure next call.
    private var pendingFailure: (status: abp_status, reason: String)?

    private func finish(_ done: Int64, _ status: abp_status, _ reason: String) -> Int64 {
        guard done > 0 else { return lastError.fail(status, reason) }
        pendingFailure = (status, reason)
        return done
    }

    /// A link whose channel count differs from the first link's: mono is spread over every
    /// channel, mono output averages, otherwise each channel that exists in both is copied and
    /// the rest is silent. Rare (books glued from parts), so plain rather than clever.
    private func fold(_ planes: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>, linkChannels: Int, frames: Int,
                      into buffer: UnsafeMutablePointer<Float>) {
        for frame in 0..<frames {
            for output in 0..<channels {
                let sample: Float
                if linkChannels == 1 {
                    sample = planes[0]?[frame] ?? 0
                } else if channels == 1 {
                    sample = (0..<linkChannels).reduce(Float(0)) { $0 + (planes[$1]?[frame] ?? 0) } / Float(linkChannels)
                } else {
                    sample = output < linkChannels ? planes[output]?[frame] ?? 0 : 0
                }
                buffer[frame * channels + output] = sample
            }
        }
    }

    func seek(to frame: Int64) -> abp_status {
        guard seekable, let totalFrames else { return lastError.fail(ABP_ERR_SEEK, "the stream is not seekable") }
        guard (0...totalFrames).contains(frame) else {
            return lastError.fail(ABP_ERR_SEEK, "frame \(frame) is outside the stream (0...\(totalFrames))")
        }
        pendingFailure = nil
        atEnd = frame == totalFrames
        if atEnd { return ABP_OK }
        let result = ov_pcm_seek(file, frame)
        guard result == 0 else {
            let error = VorbisfileError(code: result)
            return lastError.fail(error.status == ABP_ERR_IO ? ABP_ERR_IO : ABP_ERR_SEEK, "seek failed: \(error.reason)")
        }
        return ABP_OK
    }
}

/// An ABI status with a one-line reason, for every OV_* code libvorbisfile returns.
private struct VorbisfileError: DecoderOpenFailure {
    let status: abp_status
    let reason: String

    init(_ status: abp_status, _ reason: String) {
        self.status = status
        self.reason = reason
    }

    init(code: Int32) {
        switch code {
        case OV_FALSE: self.init(ABP_ERR_FORMAT, "too little data to tell whether this is Vorbis")
        case OV_EOF: self.init(ABP_ERR_FORMAT, "the stream ended unexpectedly")
        case OV_HOLE: self.init(ABP_ERR_FORMAT, "a page is missing or corrupt (a hole in the stream)")
        case OV_EREAD: self.init(ABP_ERR_IO, "reading the file failed")
        case OV_EFAULT: self.init(ABP_ERR_INTERNAL, "libvorbisfile hit an internal error")
        case OV_EIMPL: self.init(ABP_ERR_UNSUPPORTED, "the stream uses a feature libvorbisfile does not implement")
        case OV_EINVAL: self.init(ABP_ERR_INTERNAL, "libvorbisfile rejected the request")
        case OV_ENOTVORBIS: self.init(ABP_ERR_UNSUPPORTED, "an Ogg file without a Vorbis stream")
        case OV_EBADHEADER: self.init(ABP_ERR_FORMAT, "a broken Vorbis header (identification, comment or setup)")
        case OV_EVERSION: self.init(ABP_ERR_UNSUPPORTED, "the Vorbis version is newer than libvorbisfile understands")
        case OV_ENOTAUDIO: self.init(ABP_ERR_FORMAT, "the stream holds no audio")
        case OV_EBADPACKET: self.init(ABP_ERR_FORMAT, "an audio packet failed to decode")
        case OV_EBADLINK: self.init(ABP_ERR_FORMAT, "the stream is damaged: data seen before could not be found again")
        case OV_ENOSEEK: self.init(ABP_ERR_SEEK, "the stream is not seekable")
        default: self.init(ABP_ERR_INTERNAL, "libvorbisfile error \(code)")
        }
    }
}

private func errnoText() -> String { String(cString: strerror(errno)) }

private func openVorbisFile(host: Host, path: UnsafePointer<CChar>) throws(VorbisfileError) -> VorbisfileDecoder {
    // Looked at ourselves first: ov_fopen says only OV_EREAD or OV_ENOTVORBIS for a missing
    // file, a directory or one that is not Ogg at all.
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw VorbisfileError(ABP_ERR_IO, "cannot open the file: \(errnoText())") }
    var status = stat()
    var head = [UInt8](repeating: 0, count: 4)
    let isStat = fstat(fd, &status) == 0
    let kind = status.st_mode & S_IFMT
    let headCount = !isStat ? -1 : kind == S_IFREG ? read(fd, &head, head.count) : 0
    let reason = headCount < 0 ? errnoText() : ""
    close(fd)
    if kind == S_IFDIR { throw VorbisfileError(ABP_ERR_IO, "it is a directory, not a file") }
    guard headCount >= 0 else { throw VorbisfileError(ABP_ERR_IO, "cannot read the file: \(reason)") }
    guard kind != S_IFREG || headCount > 0 else { throw VorbisfileError(ABP_ERR_FORMAT, "the file is empty") }
    if kind == S_IFREG, !head[..<headCount].elementsEqual("OggS".utf8.prefix(headCount)) || headCount < 4 {
        throw VorbisfileError(ABP_ERR_FORMAT, "not an Ogg file (it does not start with an Ogg page)")
    }

    let file = UnsafeMutablePointer<OggVorbis_File>.allocate(capacity: 1)
    // ov_fopen closes the FILE and clears `file` itself when it fails.
    let code = ov_fopen(path, file)
    guard code == 0 else {
        file.deallocate()
        throw code == OV_EREAD
            ? VorbisfileError(ABP_ERR_FORMAT, "the file ends or breaks off before its headers are complete")
            : VorbisfileError(code: code)
    }
    guard let info = ov_info(file, 0)?.pointee, info.channels > 0, info.rate > 0 else {
        ov_clear(file)
        file.deallocate()
        throw VorbisfileError(ABP_ERR_FORMAT, "a broken Vorbis identification header")
    }
    let links = max(ov_streams(file), 1)
    for link in 1..<links {
        guard let other = ov_info(file, Int32(link))?.pointee, other.rate != info.rate else { continue }
        host.log(ABP_LOG_WARNING, "chained link \(link) is at \(other.rate) Hz, played at the first link's \(info.rate) Hz (its pitch is off)")
    }
    if info.channels > 8 {
        host.log(ABP_LOG_INFO, "\(info.channels) channels: only the first 8 are played")
    }
    let seekable = ov_seekable(file) != 0
    let total = seekable ? ov_pcm_total(file, -1) : -1
    return VorbisfileDecoder(
        file: file, host: host, channels: Int(min(info.channels, 8)), rate: Int(info.rate),
        seekable: seekable && total >= 0, totalFrames: total >= 0 ? total : nil)
}

/// The first link's comments, as byte ranges of libvorbisfile's vorbis_comment.
private func comments(_ comment: UnsafePointer<vorbis_comment>) -> [UnsafeRawBufferPointer] {
    guard let list = comment.pointee.user_comments, let lengths = comment.pointee.comment_lengths else { return [] }
    return (0..<Int(comment.pointee.comments)).compactMap { index in
        list[index].map { UnsafeRawBufferPointer(start: $0, count: Int(lengths[index])) }
    }
}

// MARK: - Probe

/// "OggS" at 0 and a first packet "\u{1}vorbis" (the identification header, alone on the
/// stream's first page) -> 100; an .ogg or .oga name -> 10. Opus in Ogg starts "OpusHead"
/// instead, so the two Ogg decoders never both claim a file by content.
private func probe(path: UnsafePointer<CChar>?, head: UnsafeBufferPointer<UInt8>) -> Int32 {
    if head.count >= 27, head.starts(with: "OggS".utf8) {
        let payload = 27 + Int(head[26])
        if head.count >= payload + 7, head[payload..<payload + 7].elementsEqual([1] + Array("vorbis".utf8)) { return 100 }
    }
    return extensionScore(path: path, extensions: ["ogg", "oga"])
}

// MARK: - The plugin

/// The ops table, built once into the descriptor (a global C struct is not Sendable).
private func makeOps() -> abp_decoder_ops {
    decoderOps(
        probe: { path, head, length in
            probe(path: path, head: UnsafeBufferPointer(start: head, count: head == nil ? 0 : length))
        },
        open: { hostAPI, path, _, _, metadata, out, info, error, errorSize in
            openDecoder(path: path, out: out, info: info, error: error, errorSize: errorSize) { (path: String) throws(VorbisfileError) in
                let host = Host(hostAPI, pluginID: pluginID, subject: path)
                let decoder = try openVorbisFile(host: host, path: path)
                if let metadata, let comment = ov_comment(decoder.file, 0) {
                    VorbisComments(MetadataCallbacks(metadata), rate: Int64(decoder.rate), totalFrames: decoder.totalFrames, host: host)
                        .report(comments(comment))
                }
                return OpenedDecoder(decoder, format: abp_format(rate: UInt32(decoder.rate), channels: UInt32(decoder.channels)),
                                     totalFrames: decoder.totalFrames ?? ABP_FRAMES_UNKNOWN, seekable: decoder.seekable, codec: "Vorbis")
            }
        }
    )
}

private let descriptor = PluginDescriptor(
    id: pluginID, name: "Ogg Vorbis (libvorbisfile)", version: "1.0.0",
    description: "Ogg Vorbis with exact length and seeks, tags, CHAPTERnnn chapters and cover pictures",
    capabilities: ABP_CAP_SEEK | ABP_CAP_GAPLESS | ABP_CAP_TAGS | ABP_CAP_CHAPTERS | ABP_CAP_PICTURES,
    extensions: ["ogg", "oga"], mimeTypes: ["audio/ogg", "audio/vorbis", "audio/x-vorbis+ogg"],
    decoder: makeOps()
)

@_cdecl("abplayer_plugin_entry")
public func abplayerPluginEntry(_ host: UnsafePointer<abp_host_api>?) -> UnsafePointer<abp_plugin>? {
    descriptor.entry(for: host)
}
