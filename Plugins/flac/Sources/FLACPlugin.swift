// The FLAC decoder, wrapping libFLAC's stream decoder. FLAC has no encoder delay or padding, so
// STREAMINFO's total_samples is the exact length, and libFLAC seeks to an exact sample by itself
// (bisection, helped by a SEEKTABLE when there is one). FLAC's channel order is already the
// ABI's SMPTE order. Metadata (comments, pictures, the cuesheet) is in FLACMetadata.
//
// libFLAC pushes: each process_single() call hands one block to the write callback, which
// converts it to interleaved float; read() hands that block out across as many calls as it takes.
public import ABPluginABI
import CFLAC
import PluginKit
#if canImport(Glibc)
import Glibc
#endif

private let pluginID = "flac"

final class FLACDecoder: DecoderInstance {
    let flac: UnsafeMutablePointer<FLAC__StreamDecoder>
    let host: Host
    let lastError = LastError()
    /// Set by open once STREAMINFO is known; the write callback checks blocks against it.
    var channels = 0
    var rate = 0
    /// STREAMINFO's bits per sample (what the source stores; read() gives floats).
    var bitsPerSample = 0
    var totalFrames: Int64?
    /// Borrowed from open and nil outside it: the host takes metadata during open only.
    var metadata: FLACMetadata?

    /// The last block, interleaved; `blockPosition..<blockFrames` is what read() has not returned.
    private var block: [Float] = []
    private var blockFrames = 0
    private var blockPosition = 0
    /// The frame after the last one decoded, to tell a truncated file from a complete one.
    private var decodedEnd: Int64 = 0
    private var atEnd = false
    private var truncationReported = false
    /// Open found the stream cut short and said so: its end is the end, not a failure.
    private var cutShortAtOpen = false
    /// Why a callback aborted libFLAC, when one did.
    private var abort: (status: abp_status, reason: String)?
    private var streamErrors = 0

    init(flac: UnsafeMutablePointer<FLAC__StreamDecoder>, host: Host) {
        self.flac = flac
        self.host = host
    }

    deinit {
        FLAC__stream_decoder_finish(flac) // closes the file
        FLAC__stream_decoder_delete(flac)
    }

    var state: FLAC__StreamDecoderState { FLAC__stream_decoder_get_state(flac) }

    // MARK: libFLAC's callbacks

    /// One decoded block into `block`. After a seek libFLAC hands over a partial block that starts
    /// exactly at the target.
    func write(_ frame: UnsafePointer<FLAC__Frame>, _ planes: UnsafePointer<UnsafePointer<FLAC__int32>?>) -> FLAC__StreamDecoderWriteStatus {
        let header = frame.pointee.header
        let frames = Int(header.blocksize)
        guard Int(header.channels) == channels else {
            abort = (ABP_ERR_UNSUPPORTED, "the channel count changes mid-stream (\(channels) -> \(header.channels))")
            return FLAC__STREAM_DECODER_WRITE_STATUS_ABORT
        }
        guard (4...32).contains(header.bits_per_sample) else {
            abort = (ABP_ERR_FORMAT, "invalid bits per sample \(header.bits_per_sample)")
            return FLAC__STREAM_DECODER_WRITE_STATUS_ABORT
        }
        if block.count < frames * channels { block = [Float](repeating: 0, count: frames * channels) }
        // Full scale is 2^(bps-1): the most negative sample maps to -1.
        let scale = Float(1.0 / Double(UInt64(1) << (header.bits_per_sample - 1)))
        block.withUnsafeMutableBufferPointer { output in
            for channel in 0..<channels {
                guard let plane = planes[channel] else { continue }
                for index in 0..<frames { output[index * channels + channel] = Float(plane[index]) * scale }
            }
        }
        if let pendingStreamError {
            host.log(ABP_LOG_WARNING, "\(pendingStreamError) before frame \(header.number.sample_number): skipped (further stream errors not logged)")
            self.pendingStreamError = nil
        }
        blockFrames = frames
        blockPosition = 0
        decodedEnd = Int64(header.number.sample_number) + Int64(frames)
        return FLAC__STREAM_DECODER_WRITE_STATUS_CONTINUE
    }

    /// Recoverable: libFLAC resynchronises (and writes silence for a frame with a bad CRC). Said
    /// once the next block decodes, so a file that just ends inside a frame (a cut download) gets
    /// one line, read()'s "truncated", rather than a lost-sync warning too.
    func error(_ status: FLAC__StreamDecoderErrorStatus) {
        streamErrors += 1
        guard streamErrors == 1, metadata == nil else { return }
        pendingStreamError = switch status {
        case FLAC__STREAM_DECODER_ERROR_STATUS_LOST_SYNC: "lost sync"
        case FLAC__STREAM_DECODER_ERROR_STATUS_BAD_HEADER: "a bad frame header"
        case FLAC__STREAM_DECODER_ERROR_STATUS_FRAME_CRC_MISMATCH: "a frame's checksum does not match"
        case FLAC__STREAM_DECODER_ERROR_STATUS_UNPARSEABLE_STREAM: "an unparseable frame"
        default: "a damaged frame"
        }
    }

    /// The first stream error, until a block after it decodes.
    private var pendingStreamError: String?

    var sawStreamErrors: Bool { streamErrors > 0 }

    // MARK: The ABI's calls

    func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int64) -> Int64 {
        guard maxFrames > 0 else { return lastError.fail(ABP_ERR_INVALID, "read asked for \(maxFrames) frames") }
        var done = 0
        while done < maxFrames {
            if blockPosition < blockFrames {
                let count = min(blockFrames - blockPosition, Int(maxFrames) - done)
                block.withUnsafeBufferPointer { source in
                    (buffer + done * channels).update(from: source.baseAddress! + blockPosition * channels, count: count * channels)
                }
                blockPosition += count
                done += count
                continue
            }
            if atEnd { break }
            blockFrames = 0
            blockPosition = 0
            // False with END_OF_STREAM is a file that ends inside a frame: treated as the end.
            if FLAC__stream_decoder_process_single(flac) == 0 && state != FLAC__STREAM_DECODER_END_OF_STREAM {
                return done > 0 ? Int64(done) : stateError()
            }
            switch state {
            case FLAC__STREAM_DECODER_END_OF_STREAM where blockFrames == 0: atEnd = true
            case FLAC__STREAM_DECODER_ABORTED: return done > 0 ? Int64(done) : stateError()
            default: break
            }
        }
        if done == 0, atEnd, !truncationReported, !cutShortAtOpen, let totalFrames, decodedEnd < totalFrames {
            truncationReported = true // said once; the next read() returns 0
            return lastError.fail(ABP_ERR_FORMAT, "truncated: the audio ends at frame \(decodedEnd) of \(totalFrames)")
        }
        return Int64(done)
    }

    /// Whether the stream's last frame and first frame decode, looked at by seeking (a binary
    /// search libFLAC makes over the file, or its seek table: a few reads). A file cut short
    /// decodes to where it was cut and no further, while STREAMINFO still gives the whole length:
    /// open says so then, and the importer counts what is there. Leaves the decoder at frame 0.
    func checkEnds() -> (lastDecodes: Bool, firstDecodes: Bool) {
        guard let totalFrames, totalFrames > 0 else { return (true, true) }
        let lastDecodes = seek(to: totalFrames - 1) == ABP_OK
        let firstDecodes = seek(to: 0) == ABP_OK
        if !lastDecodes { cutShortAtOpen = true }
        return (lastDecodes, firstDecodes)
    }

    func seek(to frame: Int64) -> abp_status {
        guard let totalFrames else { return lastError.fail(ABP_ERR_SEEK, "the stream's length is unknown: it cannot seek") }
        guard (0...totalFrames).contains(frame) else {
            return lastError.fail(ABP_ERR_SEEK, "frame \(frame) is outside the stream (0...\(totalFrames))")
        }
        blockFrames = 0
        blockPosition = 0
        atEnd = false
        truncationReported = false
        abort = nil
        // seek_absolute refuses to start from these states.
        if state == FLAC__STREAM_DECODER_ABORTED || state == FLAC__STREAM_DECODER_SEEK_ERROR {
            FLAC__stream_decoder_flush(flac)
        }
        if frame == totalFrames {
            // libFLAC cannot seek to one past the last sample; the next read() is the end.
            atEnd = true
            decodedEnd = frame
            return ABP_OK
        }
        // On success the write callback already holds the block starting at `frame`.
        if FLAC__stream_decoder_seek_absolute(flac, FLAC__uint64(frame)) != 0 { return ABP_OK }
        let failedState = state
        let reason = abort?.reason ?? String(cString: abp_flac_state_name(failedState))
        FLAC__stream_decoder_flush(flac)
        blockFrames = 0
        switch failedState {
        case FLAC__STREAM_DECODER_MEMORY_ALLOCATION_ERROR: return lastError.fail(ABP_ERR_NOMEM, "libFLAC ran out of memory")
        case FLAC__STREAM_DECODER_ABORTED where abort == nil: return lastError.fail(ABP_ERR_IO, "reading the file failed")
        default: return lastError.fail(ABP_ERR_SEEK, "seek to frame \(frame) failed (\(reason))")
        }
    }

    /// A failure's status and reason from libFLAC's state (or from the callback that aborted it).
    private func stateError() -> Int64 {
        if let abort { return lastError.fail(abort.status, abort.reason) }
        switch state {
        case FLAC__STREAM_DECODER_MEMORY_ALLOCATION_ERROR: return lastError.fail(ABP_ERR_NOMEM, "libFLAC ran out of memory")
        case FLAC__STREAM_DECODER_ABORTED: return lastError.fail(ABP_ERR_IO, "reading the file failed")
        default:
            let name = String(cString: abp_flac_state_name(state))
            return lastError.fail(ABP_ERR_FORMAT, "libFLAC failed in state \(name)")
        }
    }
}

// MARK: - The plugin

/// "fLaC" (after an ID3v2 tag, which libFLAC skips too) -> 100; a .flac name -> 10.
private func probe(path: UnsafePointer<CChar>?, head: UnsafeBufferPointer<UInt8>) -> Int32 {
    var offset = 0
    if head.count >= 10, head.starts(with: "ID3".utf8) {
        offset = 10 + head[6..<10].reduce(0) { $0 << 7 | Int($1 & 0x7f) } + (head[5] & 0x10 != 0 ? 10 : 0)
    }
    if offset + 4 <= head.count, head[offset..<offset + 4].elementsEqual("fLaC".utf8) { return 100 }
    return extensionScore(path: path, extensions: ["flac"])
}

/// The ops table, built once into the descriptor (a global C struct is not Sendable).
private func makeOps() -> abp_decoder_ops {
    decoderOps(
        probe: { path, head, length in
            probe(path: path, head: UnsafeBufferPointer(start: head, count: head == nil ? 0 : length))
        },
        open: { hostAPI, path, _, _, metadata, out, info, error, errorSize in
            openDecoder(path: path, out: out, info: info, error: error, errorSize: errorSize) { (path: String) throws(DecoderOpenError) in
                let host = Host(hostAPI, pluginID: pluginID, subject: path)
                let decoder = try openFLAC(path: path, host: host, metadata: metadata.map(MetadataCallbacks.init))
                return OpenedDecoder(decoder, format: abp_format(rate: UInt32(decoder.rate), channels: UInt32(decoder.channels)),
                                     totalFrames: decoder.totalFrames ?? ABP_FRAMES_UNKNOWN, seekable: decoder.totalFrames != nil,
                                     codec: "FLAC", bitsPerSample: decoder.bitsPerSample)
            }
        }
    )
}

private let descriptor = PluginDescriptor(
    id: pluginID, name: "FLAC (libFLAC)", version: "1.0.0",
    description: "FLAC with exact length and seeks, tags, chapters (CHAPTERnnn or the cuesheet) and cover pictures",
    capabilities: ABP_CAP_SEEK | ABP_CAP_GAPLESS | ABP_CAP_TAGS | ABP_CAP_CHAPTERS | ABP_CAP_PICTURES,
    extensions: ["flac"], mimeTypes: ["audio/flac", "audio/x-flac"],
    decoder: makeOps()
)

@_cdecl("abplayer_plugin_entry")
public func abplayerPluginEntry(_ host: UnsafePointer<abp_host_api>?) -> UnsafePointer<abp_plugin>? {
    descriptor.entry(for: host)
}
