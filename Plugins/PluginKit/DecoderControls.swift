public import ABPluginABI

/// What the host's read, seek and last_error calls reach in a decoder instance.
public protocol DecoderInstance: AnyObject {
    /// Up to `maxFrames` interleaved frames into `buffer`: the count, 0 at the end, or a
    /// negative abp_status (with `lastError` set).
    func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int64) -> Int64
    func seek(to frame: Int64) -> abp_status
    var lastError: LastError { get }
}

/// Why a decoder could not open a file: the status and a one-line reason without the file's
/// name (the host adds it).
public protocol DecoderOpenFailure: Error {
    var status: abp_status { get }
    var reason: String { get }
}

/// The failure most decoders need: a status and its one-line reason.
public struct DecoderOpenError: DecoderOpenFailure {
    public let status: abp_status
    public let reason: String

    public init(_ status: abp_status, _ reason: String) {
        self.status = status
        self.reason = reason
    }
}

/// A decoder just opened, with what `open` tells the host about its stream.
public struct OpenedDecoder {
    public let instance: any DecoderInstance
    public let format: abp_format
    /// ABP_FRAMES_UNKNOWN when the length is not known.
    public let totalFrames: Int64
    public let seekable: Bool
    /// The codec's name as listeners know it ("MP3", "HE-AAC v2"); empty: not said.
    public let codec: String
    /// The source's bits per sample, for lossless and PCM streams; 0 otherwise.
    public let bitsPerSample: Int

    public init(_ instance: any DecoderInstance, format: abp_format, totalFrames: Int64, seekable: Bool,
                codec: String = "", bitsPerSample: Int = 0) {
        self.instance = instance
        self.format = format
        self.totalFrames = totalFrames
        self.seekable = seekable
        self.codec = codec
        self.bitsPerSample = bitsPerSample
    }
}

/// Holds the instance the host's handle points at, so the hot `read` call reaches it without a
/// dynamic cast.
private final class DecoderHandle {
    let instance: any DecoderInstance
    init(_ instance: any DecoderInstance) { self.instance = instance }
}

private func handle(_ decoder: OpaquePointer?) -> DecoderHandle {
    Unmanaged<DecoderHandle>.fromOpaque(UnsafeRawPointer(decoder!)).takeUnretainedValue()
}

/// The ABI's side of a decoder `open`, done once for every plugin: checks the host's
/// pointers, runs `make` on the path, then fills `info` and hands out the instance, or writes the
/// failure's reason into the host's buffer.
public func openDecoder<Failure: DecoderOpenFailure>(
    path: UnsafePointer<CChar>?, out: UnsafeMutablePointer<OpaquePointer?>?,
    info: UnsafeMutablePointer<abp_stream_info>?, error: UnsafeMutablePointer<CChar>?, errorSize: Int,
    _ make: (String) throws(Failure) -> OpenedDecoder
) -> abp_status {
    guard let path, let out, let info,
          Int(info.pointee.struct_size) >= MemoryLayout<abp_stream_info>.offset(of: \.bits_per_sample)! else {
        writeError("open called without a path, an output or stream info", to: error, size: errorSize)
        return ABP_ERR_INVALID
    }
    let opened: OpenedDecoder
    do throws(Failure) {
        opened = try make(String(cString: path))
    } catch let failure {
        writeError(failure.reason, to: error, size: errorSize)
        return failure.status
    }
    info.pointee.format = opened.format
    info.pointee.total_frames = opened.totalFrames
    info.pointee.seekable = opened.seekable ? 1 : 0
    // Read no field past the struct_size the host set (plugin.h, ABP_HAS_FIELD).
    if Int(info.pointee.struct_size) >= MemoryLayout<abp_stream_info>.size {
        info.pointee.bits_per_sample = UInt32(clamping: opened.bitsPerSample)
        withUnsafeMutableBytes(of: &info.pointee.codec) { field in
            // Whole characters only, leaving room for the NUL.
            var bytes: [UInt8] = []
            for character in opened.codec {
                let encoded = Array(String(character).utf8)
                guard bytes.count + encoded.count < field.count else { break }
                bytes += encoded
            }
            field.initializeMemory(as: UInt8.self, repeating: 0)
            field.copyBytes(from: bytes)
        }
    }
    out.pointee = OpaquePointer(Unmanaged.passRetained(DecoderHandle(opened.instance)).toOpaque())
    return ABP_OK
}

/// A decoder ops table whose read, seek, last_error and close reach the instance `openDecoder`
/// handed out. The plugin gives its own `probe` and `open` (which calls `openDecoder`).
public func decoderOps(
    probe: @convention(c) (UnsafePointer<CChar>?, UnsafePointer<UInt8>?, Int) -> Int32,
    open: @convention(c) (UnsafePointer<abp_host_api>?, UnsafePointer<CChar>?, UnsafePointer<abp_option>?, Int,
                          UnsafePointer<abp_metadata_callbacks>?, UnsafeMutablePointer<OpaquePointer?>?,
                          UnsafeMutablePointer<abp_stream_info>?, UnsafeMutablePointer<CChar>?, Int) -> abp_status
) -> abp_decoder_ops {
    abp_decoder_ops(
        struct_size: 0,
        probe: probe,
        open: open,
        read: { decoder, buffer, maxFrames in
            guard let buffer else { return Int64(ABP_ERR_INVALID.rawValue) }
            return handle(decoder).instance.read(into: buffer, maxFrames: maxFrames)
        },
        seek: { decoder, frame in handle(decoder).instance.seek(to: frame) },
        last_error: { decoder in handle(decoder).instance.lastError.pointer },
        close: { decoder in Unmanaged<DecoderHandle>.fromOpaque(UnsafeRawPointer(decoder!)).release() },
        reserved: (nil, nil, nil, nil, nil, nil, nil, nil)
    )
}
