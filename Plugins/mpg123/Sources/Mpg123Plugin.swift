// The MP3 decoder: MPEG audio layers I–III through libmpg123, as interleaved float32 at the file's
// own rate and channel count. Gapless (a LAME/Xing header's encoder delay and padding are trimmed),
// exact lengths and sample-exact seeks in long VBR files (a scan, remembered in a frame index
// cache), ID3v1/v2 tags and pictures from libmpg123, ID3v2 chapters from our own parser.
public import ABPluginABI
import CMpg123
import PluginKit
#if canImport(Glibc)
import Glibc
#endif

/// One open MPEG audio stream.
final class Mpg123Decoder: DecoderInstance {
    /// A file with a Xing frame count needs no scan; its index is only worth caching (after a
    /// seek walked far into it) from 10 000 MPEG frames on (4 minutes at 44.1 kHz), below which
    /// walking there costs less than a millisecond. Files without a count are always cached:
    /// each open would otherwise scan them.
    private static let framesWorthCaching: Int64 = 10_000

    let lastError = LastError()
    private(set) var format = abp_format(rate: 0, channels: 0)
    /// "MP3" (or "MP2", "MP1": libmpg123 decodes every MPEG audio layer), for the host to show.
    private(set) var codec = "MP3"
    /// Exact, after gapless trimming: from a Xing/Info frame count, a cached index or a scan.
    private(set) var totalFrames: Int64 = 0

    private let host: Host
    private let file: SourceFile
    private let reader: UnsafeMutablePointer<abp_mpg123_reader>
    private let handle: OpaquePointer
    /// The output frame the next read() starts at.
    private var position: Int64 = 0
    /// libmpg123 frames before our frame 0: the delay it failed to trim in a truncated file.
    private var lead: Int64 = 0
    /// An error met after some audio was decoded: returned by the next read().
    private var pendingError: DecoderOpenError?
    private var warnedEarlyEnd = false
    private var cache: (store: FrameIndexCache, identity: FileIdentity)?
    private let cachesIndex: Bool
    /// MPEG frames the index on disk covers (0: none).
    private var cachedCoverage: Int64 = 0

    /// Opens `path` and reports its metadata. On a throw, deinit releases what was set up.
    /// `cachesIndex`: the `index-cache` option (a listener may not want files in their cache).
    init(host: Host, path: String, metadata: UnsafePointer<abp_metadata_callbacks>?, cachesIndex: Bool) throws(DecoderOpenError) {
        self.host = host
        self.cachesIndex = cachesIndex
        file = try SourceFile(path: path)
        guard file.size > 0 else { throw DecoderOpenError(ABP_ERR_FORMAT, "the file is empty") }
        guard let reader = abp_mpg123_reader_new(file.descriptor) else { throw DecoderOpenError(ABP_ERR_NOMEM, "out of memory") }
        var code: Int32 = 0
        guard let handle = mpg123_new(nil, &code) else {
            abp_mpg123_reader_free(reader)
            throw DecoderOpenError(code == MPG123_OUT_OF_MEM.rawValue ? ABP_ERR_NOMEM : ABP_ERR_INTERNAL,
                               "cannot create a decoder: " + String(cString: mpg123_plain_strerror(code)))
        }
        self.reader = reader
        self.handle = handle

        try configure()
        let head = try file.read(at: 0, count: FileIdentity.sampleBytes)
        let tagSize = ID3v2Header(head)?.totalSize ?? 0
        try openStream()
        // Tags first: a scan walks the whole file, and the ID3 tags of files concatenated into
        // this one would replace the first file's.
        let tag = metadata == nil ? nil : try rawTag(head: head, size: tagSize)
        let frames = tag.flatMap { ID3Chapters.frames(ofTag: $0)?.frames } ?? []
        if let metadata { reportTags(metadata.pointee, rawFrames: frames) }
        try establishLength(head: head, audioStart: Int64(tagSize))
        if let metadata { reportChapters(metadata.pointee, tag: tag, frames: frames) }
    }

    deinit {
        mpg123_delete(handle) // closes the stream; the reader and then the file go after it
        abp_mpg123_reader_free(reader)
    }

    // MARK: Opening

    private func configure() throws(DecoderOpenError) {
        let flags = MPG123_GAPLESS.rawValue | MPG123_QUIET.rawValue | MPG123_PICTURE.rawValue
        try check(abp_mpg123_param(handle, Int32(MPG123_ADD_FLAGS.rawValue), Int(flags)), "cannot configure the decoder")
        // Fuzzy seeks guess byte offsets and land minutes early in long VBR files.
        try check(abp_mpg123_param(handle, Int32(MPG123_REMOVE_FLAGS.rawValue), Int(MPG123_FUZZY.rawValue)), "cannot configure the decoder")
        try check(abp_mpg123_param(handle, Int32(MPG123_INDEX_SIZE.rawValue), FrameIndex.capacity), "cannot configure the decoder")
        // Float output at whatever rate and channel count the file has; pinned after open.
        try check(mpg123_format_none(handle), "cannot configure the decoder")
        var rates: UnsafePointer<Int>?
        var rateCount = 0
        mpg123_rates(&rates, &rateCount)
        for index in 0..<(rates == nil ? 0 : rateCount) {
            try check(mpg123_format(handle, rates![index], Int32(MPG123_MONO.rawValue | MPG123_STEREO.rawValue),
                                    Int32(MPG123_ENC_FLOAT_32.rawValue)), "this libmpg123 cannot decode to float")
        }
    }

    private func openStream() throws(DecoderOpenError) {
        try check(abp_mpg123_open_reader(handle, reader), "cannot open the stream")
        var rate = 0
        var channels: Int32 = 0
        var encoding: Int32 = 0
        let result = abp_mpg123_getformat(handle, &rate, &channels, &encoding)
        guard result == MPG123_OK.rawValue else {
            let error = failure(result, "no MPEG audio found")
            // libmpg123 reports a file without a single frame as a generic error or the end.
            throw error.status == ABP_ERR_IO ? error : DecoderOpenError(ABP_ERR_FORMAT, "no MPEG audio frames found")
        }
        guard encoding == Int32(MPG123_ENC_FLOAT_32.rawValue) else {
            throw DecoderOpenError(ABP_ERR_UNSUPPORTED, "libmpg123 decodes this file to encoding \(encoding), not float")
        }
        guard (1...2).contains(channels), rate > 0 else {
            throw DecoderOpenError(ABP_ERR_UNSUPPORTED, "\(channels) channels at \(rate) Hz")
        }
        // A file stitched from different encodes must not change the format mid-stream:
        // libmpg123 then converts to this one.
        try check(mpg123_format_none(handle), "cannot fix the output format")
        try check(mpg123_format(handle, rate, channels, Int32(MPG123_ENC_FLOAT_32.rawValue)), "cannot fix the output format")
        format = abp_format(rate: UInt32(rate), channels: UInt32(channels))

        var stream = mpg123_frameinfo2()
        if abp_mpg123_info(handle, &stream) == MPG123_OK.rawValue {
            codec = "MP\(stream.layer)"
            let version: MPEGFrameHeader.Version = stream.version == 0 ? .mpeg1 : stream.version == 1 ? .mpeg2 : .mpeg25
            let preroll = MPEGFrameHeader.seekPreroll(version: version, layer: Int(stream.layer), sampleRate: stream.rate,
                                                      channels: stream.mode == Int32(MPG123_M_MONO.rawValue) ? 1 : 2)
            try check(abp_mpg123_param(handle, Int32(MPG123_PREFRAMES.rawValue), preroll), "cannot configure seeking")
        }
    }

    /// Sets `totalFrames` exactly. A Xing/Info frame count makes libmpg123's length exact; without
    /// one its length is an estimate from the file size (74% short on a VBR file in our tests), so
    /// we load a cached index or scan the whole file once (0.06–0.26 s for 20 hours with our
    /// reader, 1.2–3 s with libmpg123's) and cache it.
    private func establishLength(head: [UInt8], audioStart: Int64) throws(DecoderOpenError) {
        let firstBytes = audioStart + 4096 <= Int64(head.count)
            ? Array(head[Int(audioStart)..<Int(audioStart) + 4096])
            : try file.read(at: audioStart, count: 4096)
        let vbr = firstBytes.withUnsafeBytes { bytes in
            MPEGFrameHeader.firstFrame(in: bytes, from: 0, window: 2048).flatMap { VBRHeader(in: bytes, frame: $0.header, at: $0.offset) }
        }
        let xing = vbr?.kind == .xing ? vbr : nil
        if cachesIndex, let directory = host.cacheDirectory, Int64(xing?.frames ?? .max) >= Self.framesWorthCaching {
            cache = (FrameIndexCache(cacheDirectory: directory), try FileIdentity(file: file, head: head))
        }
        let cached = cache.flatMap { cache in cache.store.load(cache.identity) { offset in self.isFrame(at: offset) } }

        // The header's byte count covers the audio after the tag; a file much shorter was cut
        // off. One line, whichever header said it.
        let truncated = vbr?.bytes.map { file.size - audioStart + 2048 < Int64($0) } ?? false
        if let vbr, truncated {
            host.log(ABP_LOG_WARNING, "the file is shorter than its \(vbr.kind.rawValue) header says: truncated, it plays what it has")
        }
        if xing?.frames != nil, !truncated, case let length = Int64(mpg123_length(handle)), length > 0 {
            totalFrames = length
            if let cached, cached.totalFrames == length, install(cached) { cachedCoverage = cached.coverage }
            return
        }
        // libmpg123 decodes a VBRI frame as a frame of silence: the stream starts after it, as
        // in ffmpeg. (The index, cached or scanned, counts it; `lead` keeps it out of positions.)
        let vbriLead = vbr?.kind == .vbri ? Int64(mpg123_spf(handle)) : 0
        if let cached, cached.spansStream(samplesPerFrame: Int64(mpg123_spf(handle))), install(cached) {
            totalFrames = cached.totalFrames
            cachedCoverage = cached.coverage
            try skipLead(vbriLead)
            host.log(ABP_LOG_DEBUG, "exact length and frame index from the cache")
            return
        }
        var started = timespec()
        clock_gettime(CLOCK_MONOTONIC, &started)
        try check(mpg123_scan(handle), "cannot scan the stream")
        let scanned = Int64(mpg123_length(handle))
        guard scanned >= 0 else { throw lengthUnknown() }
        // When a scan finds fewer frames than a Xing header promised, libmpg123 drops gapless
        // trimming altogether and the encoder and decoder delay come out as audio. Skip them here,
        // so the timeline (chapters, saved positions) stays that of the intact file.
        if let promised = xing?.frames, Int64(mpg123_framelength(handle)) < Int64(promised) {
            try skipLead(max(0, Int64(abp_mpg123_getstate(handle, Int32(MPG123_ENC_DELAY.rawValue))))
                + max(0, Int64(abp_mpg123_getstate(handle, Int32(MPG123_DEC_DELAY.rawValue)))), of: scanned)
        } else {
            try skipLead(vbriLead, of: scanned)
        }
        totalFrames = scanned - lead
        host.log(ABP_LOG_DEBUG, "scanned for the exact length in \(millisecondsSince(started)) ms")
        saveIndex(ifItGrewBy: 1)
    }

    /// Why libmpg123 has no length after a scan: most often a LAME header whose encoder delay and
    /// padding (trimmed for gapless playback) add up to more than the stream holds.
    private func lengthUnknown() -> DecoderOpenError {
        let delay = Int64(abp_mpg123_getstate(handle, Int32(MPG123_ENC_DELAY.rawValue)))
        let padding = Int64(abp_mpg123_getstate(handle, Int32(MPG123_ENC_PADDING.rawValue)))
        let mpegFrames = Int64(mpg123_framelength(handle))
        let samples = mpegFrames * Int64(mpg123_spf(handle))
        if delay >= 0, padding >= 0, mpegFrames >= 0, delay + padding >= samples {
            return DecoderOpenError(ABP_ERR_FORMAT, "its LAME header's encoder delay and padding (\(delay) + \(padding) samples) are longer than the "
                                + "\(samples) samples of its \(mpegFrames) MPEG frames: nothing is left to play (a damaged or mis-tagged file)")
        }
        return DecoderOpenError(ABP_ERR_FORMAT, "cannot determine the length of the stream (\(max(mpegFrames, 0)) MPEG frames found)")
    }

    /// Makes libmpg123's first `frames` frames come before our frame 0 (`of`: the stream's length,
    /// when known, which they must leave something of).
    private func skipLead(_ frames: Int64, of length: Int64 = .max) throws(DecoderOpenError) {
        lead = frames
        guard frames > 0 else { return }
        guard frames < length, mpg123_seek(handle, off_t(frames), SEEK_SET) == frames else {
            throw DecoderOpenError(ABP_ERR_FORMAT, "the stream is too short to decode")
        }
    }

    /// Whether a frame of this stream's sample rate starts at `offset` (checks a cached index).
    private func isFrame(at offset: Int64) -> Bool {
        guard let bytes = try? file.read(at: offset, count: 4), bytes.count == 4 else { return false }
        return bytes.withUnsafeBytes { MPEGFrameHeader($0, at: 0)?.sampleRate == Int(format.rate) }
    }

    private func install(_ index: FrameIndex) -> Bool {
        var offsets = index.offsets.map { off_t($0) }
        let result = offsets.withUnsafeMutableBufferPointer {
            mpg123_set_index(handle, $0.baseAddress, off_t(index.step), $0.count)
        }
        // mpg123_set_index sizes the index to exactly the entries given, so the next frame added
        // would halve its resolution: give the room back.
        _ = abp_mpg123_param(handle, Int32(MPG123_INDEX_SIZE.rawValue), FrameIndex.capacity)
        return result == MPG123_OK.rawValue
    }

    /// libmpg123's index as it stands, borrowed: valid until the next libmpg123 call.
    private func withCurrentIndex<T>(_ body: (_ step: Int64, _ offsets: UnsafeBufferPointer<off_t>) -> T) -> T? {
        var offsets: UnsafeMutablePointer<off_t>?
        var step: off_t = 0
        var fill = 0
        guard mpg123_index(handle, &offsets, &step, &fill) == MPG123_OK.rawValue, let offsets, fill > 0, step > 0 else { return nil }
        return body(Int64(step), UnsafeBufferPointer(start: offsets, count: fill))
    }

    /// Writes the index when it reaches `minimum` MPEG frames further than the one on disk: after
    /// a scan, or after a seek that walked far into a Xing file (so that the next session's first
    /// seek there is instant).
    private func saveIndex(ifItGrewBy minimum: Int64) {
        guard let cache, let coverage = withCurrentIndex({ step, offsets in step * Int64(offsets.count) }),
              coverage - cachedCoverage >= minimum,
              let index = withCurrentIndex({ step, offsets in
                  FrameIndex(step: step, offsets: offsets.map { Int64($0) }, totalFrames: totalFrames).thinned()
              }) else { return }
        let suffix = "\(getpid())-\(UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque()))"
        if let reason = cache.store.save(index, for: cache.identity, uniqueSuffix: suffix) {
            host.log(ABP_LOG_WARNING, "frame index not cached: \(reason)")
        } else {
            cachedCoverage = coverage
        }
    }

    /// The raw ID3v2 tag, for what libmpg123 does not expose (chapters, repeated frames); nil when
    /// there is none, or beyond 64 MiB (all pictures, and not worth reading).
    private func rawTag(head: [UInt8], size: Int) throws(DecoderOpenError) -> [UInt8]? {
        guard size > 0 else { return nil }
        guard size <= 64 << 20 else {
            host.log(ABP_LOG_INFO, "ID3v2 tag too large to look for chapters")
            return nil
        }
        return size <= head.count ? Array(head[0..<size]) : try file.read(at: 0, count: size)
    }

    private func reportTags(_ metadata: abp_metadata_callbacks, rawFrames: [ID3Chapters.Frame]) {
        var v1: UnsafeMutablePointer<mpg123_id3v1>?
        var v2: UnsafeMutablePointer<mpg123_id3v2>?
        guard mpg123_meta_check(handle) & MPG123_ID3 != 0, mpg123_id3(handle, &v1, &v2) == MPG123_OK.rawValue else { return }
        if metadata.has(\.tag), let tag = metadata.tag {
            for pair in ID3Tags(v1: v1, v2: v2, rawFrames: rawFrames).pairs {
                pair.key.withCString { key in pair.value.withCString { value in tag(metadata.ctx, key, value) } }
            }
        }
        if metadata.has(\.picture), let picture = metadata.picture {
            ID3Tags.forEachPicture(in: v2) { mime, type, data in
                mime.withCString { picture(metadata.ctx, $0, type, data.bindMemory(to: UInt8.self).baseAddress, data.count) }
            }
        }
    }

    /// CHAP frames, or else OverDrive's MediaMarkers (a TXXX of XML that library MP3s carry).
    private func reportChapters(_ metadata: abp_metadata_callbacks, tag: [UInt8]?, frames: [ID3Chapters.Frame]) {
        guard metadata.has(\.chapter), let chapter = metadata.chapter, let tag else { return }
        var found = ID3Chapters.parse(tag)
        if found.isEmpty { found = OverDriveMarkers.chapters(in: frames) }
        for item in found {
            let start = Int64(item.startMilliseconds) * Int64(format.rate) / 1000
            guard start <= totalFrames else { continue } // points past the end: a stale tag
            item.title.withCString { chapter(metadata.ctx, start, $0) }
        }
    }

    // MARK: Decoding

    /// Frames decoded into `buffer`, 0 at the end, or a negative abp_status.
    func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int64) -> Int64 {
        if let pendingError {
            self.pendingError = nil
            return fail(pendingError)
        }
        let frameBytes = Int(format.channels) * MemoryLayout<Float>.size
        guard maxFrames > 0 else { return fail(DecoderOpenError(ABP_ERR_INVALID, "read of \(maxFrames) frames")) }
        let wanted = Int(min(maxFrames, Int64(Int.max / frameBytes))) * frameBytes
        var done = 0
        var result: Int32
        repeat {
            var got = 0
            result = mpg123_read(handle, UnsafeMutableRawPointer(buffer).advanced(by: done), wanted - done, &got)
            done += got
        } while result == MPG123_NEW_FORMAT.rawValue && done == 0 // the format is pinned: nothing to do
        // libmpg123 hands out whole frames whenever the buffer holds a whole number of them.
        let frames = Int64(done / frameBytes)
        position += frames
        switch result {
        case MPG123_OK.rawValue, MPG123_NEW_FORMAT.rawValue:
            return frames
        case MPG123_DONE.rawValue, MPG123_NEED_MORE.rawValue:
            if frames == 0 { noteEnd() }
            return frames
        case _ where endsInsideTheLastFrame(result):
            if frames == 0 { noteEnd() }
            return frames
        default:
            let error = failure(result, "cannot decode")
            guard frames == 0 else {
                pendingError = error
                return frames
            }
            return fail(error)
        }
    }

    /// libmpg123 stops reading where an ID3v1 tag starts; a last frame cut off before the tag then
    /// fails as "Error reading the stream" although nothing failed to read (our reader saw no
    /// error): the audio simply ends there, as it does in a cut file without the tag.
    private func endsInsideTheLastFrame(_ result: Int32) -> Bool {
        result == MPG123_ERR.rawValue && mpg123_errcode(handle) == MPG123_ERR_READER.rawValue && reader.pointee.error == 0
    }

    /// A stream that stops before its known length was cut short: it plays what it has.
    private func noteEnd() {
        guard position < totalFrames, !warnedEarlyEnd else { return }
        warnedEarlyEnd = true
        host.log(ABP_LOG_WARNING, "the audio ends at frame \(position) of \(totalFrames): the file is truncated or damaged")
    }

    func seek(to frame: Int64) -> abp_status {
        guard frame >= 0, frame <= totalFrames else {
            lastError.set("frame \(frame) is outside the stream (0...\(totalFrames))")
            return ABP_ERR_SEEK
        }
        pendingError = nil
        let landed = mpg123_seek(handle, off_t(frame + lead), SEEK_SET)
        guard landed >= 0 else {
            let error = failure(Int32(truncatingIfNeeded: landed), "cannot seek")
            lastError.set(error.reason)
            return error.status == ABP_ERR_IO ? ABP_ERR_IO : ABP_ERR_SEEK
        }
        let now = Int64(mpg123_tell(handle)) - lead
        guard now == frame else {
            lastError.set("the seek to frame \(frame) landed at frame \(now)")
            return ABP_ERR_SEEK
        }
        position = frame
        saveIndex(ifItGrewBy: Self.framesWorthCaching)
        return ABP_OK
    }

    // MARK: Errors

    private func check(_ result: Int32, _ what: String) throws(DecoderOpenError) {
        guard result == MPG123_OK.rawValue else { throw failure(result, what) }
    }

    /// The error behind a failed libmpg123 call: our reader's errno first (an I/O failure), then
    /// libmpg123's own code.
    private func failure(_ result: Int32, _ what: String) -> DecoderOpenError {
        if reader.pointee.error != 0 {
            let code = reader.pointee.error
            reader.pointee.error = 0
            return DecoderOpenError(ABP_ERR_IO, "\(what): \(systemError(code))")
        }
        let code = result == MPG123_ERR.rawValue ? mpg123_errcode(handle) : result
        let status = code == MPG123_OUT_OF_MEM.rawValue ? ABP_ERR_NOMEM : ABP_ERR_FORMAT
        return DecoderOpenError(status, "\(what): " + String(cString: mpg123_plain_strerror(code)))
    }

    private func fail(_ error: DecoderOpenError) -> Int64 {
        lastError.set(error.reason)
        return Int64(error.status.rawValue)
    }
}

private extension abp_metadata_callbacks {
    /// Whether the host's struct (struct_size bytes) reaches `field`: readers never touch more.
    func has<T>(_ field: KeyPath<abp_metadata_callbacks, T>) -> Bool {
        MemoryLayout<abp_metadata_callbacks>.offset(of: field).map { $0 + MemoryLayout<T>.size <= Int(struct_size) } ?? false
    }
}

private func millisecondsSince(_ start: timespec) -> Int {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return (now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1_000_000
}

/// The ops table, built once into the descriptor (a global C struct is not Sendable).
private func makeOps() -> abp_decoder_ops {
    decoderOps(
        probe: { path, head, length in MPEGProbe.score(path: path, head: head, length: length) },
        open: { host, path, options, optionCount, metadata, out, info, error, errorSize in
            openDecoder(path: path, out: out, info: info, error: error, errorSize: errorSize) { (path: String) throws(DecoderOpenError) in
                let cachesIndex: Bool
                do throws(PluginOptionError) {
                    cachesIndex = try PluginOptions(options, count: optionCount).bool("index-cache") ?? true
                } catch {
                    throw DecoderOpenError(ABP_ERR_INVALID, error.description)
                }
                let decoder = try Mpg123Decoder(host: Host(host, pluginID: "mpg123", subject: path), path: path,
                                                metadata: metadata, cachesIndex: cachesIndex)
                return OpenedDecoder(decoder, format: decoder.format, totalFrames: decoder.totalFrames, seekable: true, codec: decoder.codec)
            }
        }
    )
}

private let descriptor = PluginDescriptor(
    id: "mpg123", name: "MP3 (libmpg123)", version: "1.0.0",
    description: "MPEG audio layers I-III: gapless, exact seeks in long VBR files, ID3 tags, chapters and pictures",
    capabilities: ABP_CAP_SEEK | ABP_CAP_GAPLESS | ABP_CAP_TAGS | ABP_CAP_CHAPTERS | ABP_CAP_PICTURES,
    extensions: ["mp3", "mp2", "mpga"], mimeTypes: ["audio/mpeg"],
    options: [.init("index-cache", ABP_OPTION_BOOL, default: "true",
                    help: "keep the frame index of a file without a seek table in the cache directory, for fast opens")],
    decoder: makeOps()
)

@_cdecl("abplayer_plugin_entry")
public func abplayerPluginEntry(_ host: UnsafePointer<abp_host_api>?) -> UnsafePointer<abp_plugin>? {
    descriptor.entry(for: host)
}
