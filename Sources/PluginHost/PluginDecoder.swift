import ABPluginABI
import PlayerCore

/// A decoder plugin's instance seen as a `Decoder`.
final class PluginDecoder: Decoder {
    let info: StreamInfo
    let metadata: MediaMetadata
    let pluginID: String
    private let path: String
    private let ops: abp_decoder_ops
    private let instance: OpaquePointer

    /// Opens `path` with `plugin`; throws `AudioError` naming the file.
    /// `options` were checked against the plugin's declared options (`--decoder-option`).
    init(plugin: LoadedPlugin, ops: abp_decoder_ops, path: String, options: [String: String],
         hostAPI: PluginHostAPI) throws {
        self.path = path
        self.ops = ops
        pluginID = plugin.id
        let collector = MetadataCollector()
        var callbacks = abp_metadata_callbacks()
        callbacks.struct_size = UInt32(MemoryLayout<abp_metadata_callbacks>.size)
        callbacks.ctx = Unmanaged.passUnretained(collector).toOpaque()
        // The host asks only for what the descriptor says the plugin reports (ABP_CAP_TAGS,
        // _CHAPTERS, _PICTURES): the others stay NULL, which the ABI lets a decoder expect.
        let wants = plugin.capabilities
        if wants.contains(.tags) { callbacks.tag = { context, key, value in
            guard let context, let key, let value else { return }
            MetadataCollector.from(context).metadata.tags.append(key: String(cString: key), value: String(cString: value))
        } }
        if wants.contains(.chapters) { callbacks.chapter = { context, start, title in
            guard let context else { return }
            MetadataCollector.from(context).metadata.chapters.append(
                Chapter(startFrame: start, title: title.map { String(cString: $0) } ?? ""))
        } }
        if wants.contains(.pictures) { callbacks.picture = { context, mime, type, data, size in
            guard let context, let data else { return }
            MetadataCollector.from(context).metadata.pictures.append(Picture(
                type: Int(type), mimeType: mime.map { String(cString: $0) } ?? "",
                data: Array(UnsafeBufferPointer(start: data, count: size))))
        } }
        var streamInfo = abp_stream_info()
        streamInfo.struct_size = UInt32(MemoryLayout<abp_stream_info>.size)
        var opened: OpaquePointer?
        let names = options.keys.sorted()
        let (status, message) = withCStringOptions(names.map { ($0, options[$0]!) }) { cOptions, count in
            withErrorBuffer { buffer, size in
                withExtendedLifetime(collector) {
                    ops.open(hostAPI.table, path, cOptions, count, &callbacks, &opened, &streamInfo, buffer, size)
                }
            }
        }
        guard status == ABP_OK, let opened else {
            var error = AudioError(status: status == ABP_OK ? ABP_ERR_INTERNAL : status, subject: path, message: message)
            // A decoder may report the metadata of a file it cannot play (plugin.h, open).
            var metadata = collector.metadata
            if !metadata.tags.entries.isEmpty || !metadata.chapters.isEmpty || !metadata.pictures.isEmpty {
                metadata.chapters.sort { $0.startFrame < $1.startFrame }
                let format = streamInfo.format
                let known = format.rate > 0 && format.rate <= 768_000 && (1...8).contains(format.channels)
                error.unplayable = UnplayableMedia(
                    pluginID: plugin.id, format: known ? AudioFormat(rate: Int(format.rate), channels: Int(format.channels)) : nil,
                    metadata: metadata)
            }
            throw error
        }
        let format = streamInfo.format
        guard format.rate > 0, format.rate <= 768_000, (1...8).contains(format.channels) else {
            ops.close(opened)
            throw AudioError(.format, subject: path, reason: "decoder \(plugin.id) reported an impossible format (\(format.rate) Hz, \(format.channels) channels)")
        }
        instance = opened
        info = StreamInfo(
            format: AudioFormat(rate: Int(format.rate), channels: Int(format.channels)),
            totalFrames: streamInfo.total_frames >= 0 ? streamInfo.total_frames : nil,
            isSeekable: streamInfo.seekable != 0 && ops.seek != nil && plugin.capabilities.contains(.seek),
            codec: Self.codecName(in: streamInfo), bitsPerSample: (1...64).contains(streamInfo.bits_per_sample) ? Int(streamInfo.bits_per_sample) : nil)
        var metadata = collector.metadata
        metadata.chapters.sort { $0.startFrame < $1.startFrame }
        self.metadata = metadata
    }

    deinit { ops.close(instance) }

    func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) throws -> Int {
        let result = ops.read(instance, buffer, Int64(maxFrames))
        guard result >= 0 else { throw error(abp_status(rawValue: Int32(clamping: result))) }
        return Int(result)
    }

    func seek(to frame: Int64) throws {
        guard info.isSeekable, let seek = ops.seek else {
            throw AudioError(.seek, subject: path, reason: "this stream cannot seek")
        }
        if let total = info.totalFrames, frame > total || frame < 0 {
            throw AudioError(.seek, subject: path, reason: "frame \(frame) is outside the stream (0...\(total))")
        }
        let status = seek(instance, frame)
        guard status == ABP_OK else { throw error(status) }
    }

    private func error(_ status: abp_status) -> AudioError {
        AudioError(status: status, subject: path, message: ops.last_error.flatMap { $0(instance) }.map { String(cString: $0) } ?? "")
    }

    /// The codec's name a 1.4 plugin wrote (up to its NUL, within the field even without one);
    /// nil when empty (an older plugin leaves it zero).
    static func codecName(in info: abp_stream_info) -> String? {
        let name = withUnsafeBytes(of: info.codec) { field in
            String(decoding: field.prefix { $0 != 0 }, as: UTF8.self)
        }
        return name.isEmpty ? nil : name
    }
}

/// Receives metadata callbacks during `open`.
private final class MetadataCollector {
    var metadata = MediaMetadata()

    static func from(_ context: UnsafeMutableRawPointer) -> MetadataCollector {
        Unmanaged<MetadataCollector>.fromOpaque(context).takeUnretainedValue()
    }
}
