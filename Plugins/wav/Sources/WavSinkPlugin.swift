// The WAV file output: writes what the host plays to a 32-bit float WAV file, as fast as the
// host supplies audio (rendering a book to a file, tests) or paced like a sound card. A file has
// no clock, so an underrun is not silence: exactly the frames pulled are written.
//
// The header is written at open with 0xFFFFFFFF sizes ("to the end of the file"), so a file cut
// short by a crash still reads, and patched with the real sizes at drain, stop and close. RIFF
// sizes are 32-bit: once the data passes 4 GiB (3.1 hours of 48 kHz stereo) the RIFF and data
// sizes stay 0xFFFFFFFF. ffmpeg then reads the file to its end; sox stops after the first 4 GiB.
// RF64 would lift the limit.
public import ABPluginABI
import PluginKit
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

private let pluginID = "wav"
private let headerSize = 58
private let writeBufferSize = 64 * 1024

/// The open file and its write buffer. Lives inside a Mutex: the pull thread appends during a
/// period, the host's thread flushes and patches the header between periods.
private struct WavFile: ~Copyable {
    let fd: Int32
    let format: abp_format
    private let buffer: UnsafeMutableRawBufferPointer
    private var buffered = 0
    /// Data bytes on disk after the header.
    private var written: UInt64 = 0
    /// Why writing stopped; once set, nothing more is pulled or written.
    private(set) var failure: String?
    /// Cleared by stop so that a period already under way does not pull after stop returns.
    var pulling = false

    init(path: String, format: abp_format) throws(WavError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw WavError(ABP_ERR_IO, "cannot create \(path): \(errnoText())") }
        if let reason = writeAll(fd, waveHeader(format, dataBytes: nil)) {
            close(fd)
            throw WavError(ABP_ERR_IO, "cannot write the header of \(path): \(reason)")
        }
        self.fd = fd
        self.format = format
        buffer = .allocate(byteCount: writeBufferSize, alignment: 16)
    }

    deinit {
        buffer.deallocate()
        close(fd)
    }

    mutating func append(_ samples: UnsafePointer<Float>, frames: Int) {
        var source = UnsafeRawPointer(samples)
        var remaining = frames * Int(format.channels) * MemoryLayout<Float>.size
        while remaining > 0 && failure == nil {
            let count = min(remaining, buffer.count - buffered)
            let destination = buffer.baseAddress! + buffered
            #if _endian(little)
            destination.copyMemory(from: source, byteCount: count)
            #else
            for offset in stride(from: 0, to: count, by: 4) {
                let sample = source.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                destination.storeBytes(of: sample.littleEndian, toByteOffset: offset, as: UInt32.self)
            }
            #endif
            buffered += count
            source += count
            remaining -= count
            if buffered == buffer.count { flush() }
        }
    }

    mutating func flush() {
        guard buffered > 0, failure == nil else { return }
        var offset = 0
        while offset < buffered {
            let result = write(fd, buffer.baseAddress! + offset, buffered - offset)
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else {
                failure = "writing failed: \(result < 0 ? errnoText() : "no progress")"
                break
            }
            offset += result
            written += UInt64(result)
        }
        buffered = 0
    }

    /// Flushes and writes the real sizes into the header (whole frames only, should a failed
    /// write have left part of one). Returns why writing failed, if it has.
    mutating func finish() -> String? {
        flush()
        let blockAlign = UInt64(format.channels) * 4
        if let reason = writeAll(fd, waveHeader(format, dataBytes: written / blockAlign * blockAlign), at: 0),
           failure == nil {
            failure = "cannot update the header: \(reason)"
        }
        return failure
    }
}

// Its buffer is private and only ever reached through the Mutex that owns the value.
extension WavFile: @unchecked Sendable {}

private struct WavError: Error {
    let status: abp_status
    let reason: String

    init(_ status: abp_status, _ reason: String) {
        self.status = status
        self.reason = reason
    }
}

private func errnoText() -> String { String(cString: strerror(errno)) }

/// Writes all of `bytes` (at `offset`, or at the current position); the reason on failure.
private func writeAll(_ fd: Int32, _ bytes: [UInt8], at offset: Int? = nil) -> String? {
    var done = 0
    while done < bytes.count {
        let result = bytes.withUnsafeBytes { all in
            let rest = all.baseAddress! + done
            return offset.map { pwrite(fd, rest, all.count - done, off_t($0 + done)) } ?? write(fd, rest, all.count - done)
        }
        if result < 0 && errno == EINTR { continue }
        guard result > 0 else { return result < 0 ? errnoText() : "no progress" }
        done += result
    }
    return nil
}

/// The 58-byte header: RIFF/WAVE, a fmt chunk with the plain IEEE float tag (3) and cbSize 0,
/// a fact chunk (required for non-PCM data), and the data chunk's header; the layout sox itself
/// writes. WAVE_FORMAT_EXTENSIBLE would only add a channel mask, which the ABI cannot fill yet (it
/// defines no channel order beyond stereo), and sox warns on every extensible float file. Sizes
/// that are unknown (nil) or beyond 32 bits are 0xFFFFFFFF.
private func waveHeader(_ format: abp_format, dataBytes: UInt64?) -> [UInt8] {
    var header: [UInt8] = []
    header.reserveCapacity(headerSize)
    func append(_ text: String) { header += text.utf8 }
    func append32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { header += $0 } }
    func append16(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { header += $0 } }
    func size32(_ value: UInt64?) -> UInt32 { value.flatMap { UInt32(exactly: $0) } ?? 0xFFFF_FFFF }
    let blockAlign = format.channels * 4

    append("RIFF"); append32(size32(dataBytes.map { $0 + UInt64(headerSize - 8) })); append("WAVE")
    append("fmt "); append32(18)
    append16(3) // WAVE_FORMAT_IEEE_FLOAT
    append16(UInt16(format.channels)); append32(format.rate)
    append32(format.rate * blockAlign); append16(UInt16(blockAlign)); append16(32)
    append16(0) // cbSize: no extension
    append("fact"); append32(4); append32(size32(dataBytes.map { $0 / UInt64(blockAlign) }))
    append("data"); append32(size32(dataBytes))
    return header
}

/// What the pull thread uses: the source, a period's scratch space and the file.
private final class WavOutput {
    let source: abp_audio_source
    let hasStatus: Bool
    let scratch: UnsafeMutableBufferPointer<Float>
    let file: Mutex<WavFile>

    init(source: abp_audio_source, file: consuming WavFile, periodFrames: Int) {
        self.source = source
        let statusEnd = MemoryLayout<abp_audio_source>.offset(of: \.status)! + MemoryLayout<UnsafeRawPointer>.size
        hasStatus = Int(source.struct_size) >= statusEnd && source.status != nil
        scratch = .allocate(capacity: periodFrames * Int(file.format.channels))
        self.file = Mutex(file)
    }

    deinit { scratch.deallocate() }

    /// One period on the pull thread: pull up to `frames` and write exactly what came.
    func period(_ frames: Int) -> Int {
        let (pulled, failure) = file.withLock { file -> (Int, String?) in
            guard file.pulling, file.failure == nil else { return (0, nil) }
            let pulled = source.pull(source.ctx, scratch.baseAddress, frames)
            if pulled > 0 { file.append(scratch.baseAddress!, frames: pulled) }
            return (pulled, file.failure)
        }
        // Outside the lock: the host may call stop() from its status handler.
        if let failure, hasStatus { failure.withCString { source.status(source.ctx, ABP_ERR_IO, $0) } }
        return pulled
    }
}

private final class WavSink {
    let output: WavOutput
    let thread: PullThread
    let lastError = LastError()

    init(output: WavOutput, periodFrames: Int, pacing: PullThread.Pacing) {
        self.output = output
        thread = PullThread(periodFrames: periodFrames, pacing: pacing, waitForAudio: output.source.pullThreadWait) { [output] in
            output.period($0)
        }
    }

    /// Flushes and patches the header; ABP_ERR_IO with last_error set once writing has failed.
    func finish() -> abp_status {
        guard let failure = output.file.withLock({ $0.finish() }) else { return ABP_OK }
        lastError.set(failure)
        return ABP_ERR_IO
    }
}

private func openSink(
    _ requested: abp_format, _ options: PluginOptions, _ source: abp_audio_source
) throws(WavError) -> WavSink {
    guard let path = options["path"], !path.isEmpty else { throw WavError(ABP_ERR_INVALID, "option path is required") }
    // Only a .wav file is replaced: `--output wav:book.mp3` (a slip for the book's own file) or a
    // library's database named here was gone. Told by the name, not by reading the file: opening
    // the database inside the player would drop SQLite's locks on it.
    var existing = stat()
    if stat(path, &existing) == 0, existing.st_mode & S_IFMT == S_IFREG, existing.st_size > 0, !path.lowercased().hasSuffix(".wav") {
        throw WavError(ABP_ERR_INVALID, "\(path) exists and is not a .wav file: not replaced (name a new file, or one ending in .wav)")
    }
    let paced: Bool
    do { paced = try options.bool("paced") ?? false } catch { throw WavError(ABP_ERR_INVALID, "\(error)") }
    guard (1...8).contains(requested.channels), requested.rate > 0 else {
        throw WavError(ABP_ERR_INVALID, "cannot write \(requested.channels) channels at \(requested.rate) Hz")
    }
    let file = try WavFile(path: path, format: requested)
    // 20 ms, like a typical device period; unpaced, 250 ms (half the host's ring), to take the
    // ring in few pulls and wake once per pull.
    let periodFrames = max(Int(requested.rate) / (paced ? 50 : 4), 1)
    return WavSink(
        output: WavOutput(source: source, file: file, periodFrames: periodFrames), periodFrames: periodFrames,
        pacing: paced ? .realTime(rate: Int(requested.rate)) : .unpaced)
}

/// The ops table, built once into the descriptor (a global C struct is not Sendable).
private func makeOps() -> abp_sink_ops {
    var ops = sinkControlOps()
    ops.open = { _, requested, options, optionCount, source, out, actual, error, errorSize in
        guard let requested, let source, let out, let actual, source.pointee.pull != nil else {
            writeError("open called without a format, a source or an output", to: error, size: errorSize)
            return ABP_ERR_INVALID
        }
        let sink: WavSink
        do throws(WavError) {
            sink = try openSink(requested.pointee, PluginOptions(options, count: optionCount), source.pointee)
        } catch let failure {
            writeError(failure.reason, to: error, size: errorSize)
            return failure.status
        }
        actual.pointee = requested.pointee
        out.pointee = OpaquePointer(Unmanaged.passRetained(sink).toOpaque())
        return ABP_OK
    }
    return ops
}

extension WavSink: SinkInstance {
    func start() -> abp_status {
        output.file.withLock { $0.pulling = true }
        guard thread.start() else {
            lastError.set("cannot start the writer thread")
            return ABP_ERR_INTERNAL
        }
        return ABP_OK
    }

    func pause() -> abp_status { thread.pause(); return ABP_OK }
    func resume() -> abp_status { thread.resume(); return ABP_OK }
    var latency: Int64 { 0 } // written is "heard"

    func drain() -> abp_status {
        thread.drain()
        return finish()
    }

    func stop() -> abp_status {
        thread.pause()
        // Taking the lock waits out a period already under way; the flag stops the next one.
        output.file.withLock { $0.pulling = false }
        return finish()
    }

    func close() {
        thread.stop()
        _ = finish()
    }
}

private let descriptor = PluginDescriptor(
    id: pluginID, name: "WAV file", version: "1.0.0",
    description: "Writes the audio to a 32-bit float WAV file, as fast as decoded or in real time",
    capabilities: ABP_CAP_PAUSE, priority: 0, extensions: ["wav"],
    options: [
        .init("path", ABP_OPTION_PATH, default: nil, help: "the WAV file to write (required; an existing file is replaced only if its name ends in .wav)"),
        .init("paced", ABP_OPTION_BOOL, default: "false", help: "consume audio in real time (default: as fast as decoded)"),
    ],
    argumentOption: "path",
    sink: makeOps()
)

@_cdecl("abplayer_plugin_entry")
public func abplayerPluginEntry(_ host: UnsafePointer<abp_host_api>?) -> UnsafePointer<abp_plugin>? {
    descriptor.entry(for: host)
}
