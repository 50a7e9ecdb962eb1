// The catch-all decoder, over FFmpeg's libraries (libavformat demuxes, libavcodec decodes,
// libswresample converts to interleaved float): WAV, AIFF, CAF, ALAC and MP3 in MP4, WMA,
// Matroska and WebM, AC-3, Speex and FLAC in Ogg, WavPack, Monkey's Audio, Musepack, TTA.
// Lowest priority and low probe scores: it plays what no dedicated decoder claims, or what the
// claimant declined at open. FFmpeg is loaded when it first opens a file (CFFmpeg/ffmpeg.c).
public import ABPluginABI
import CFFmpeg
import PluginKit

private let pluginID = "ffmpeg"

private func openFFmpeg(hostAPI: UnsafePointer<abp_host_api>?, path: String,
                        metadata: UnsafePointer<abp_metadata_callbacks>?) throws(DecoderOpenError) -> OpenedDecoder {
    let host = Host(hostAPI, pluginID: pluginID, subject: path)
    let input = try FFmpegInput(path: path)
    let decoder = try FFmpegDecoder(input: input, host: host)
    if let metadata {
        FFmpegMetadata(callbacks: MetadataCallbacks(metadata), rate: decoder.rate).report(input, totalFrames: decoder.totalFrames)
    }
    return OpenedDecoder(decoder, format: abp_format(rate: UInt32(decoder.rate), channels: UInt32(decoder.channels)),
                         totalFrames: decoder.totalFrames ?? ABP_FRAMES_UNKNOWN, seekable: decoder.seekable,
                         codec: CodecNames.name(input.codecName),
                         bitsPerSample: CodecNames.bitsPerSample(input.parameters, ffmpegName: input.codecName))
}

/// The ops table, built once into the descriptor (a global C struct is not Sendable).
private func makeOps() -> abp_decoder_ops {
    decoderOps(
        probe: { path, head, length in
            ContainerProbe.score(path: path, head: UnsafeBufferPointer(start: head, count: head == nil ? 0 : length))
        },
        open: { hostAPI, path, _, _, metadata, out, info, error, errorSize in
            openDecoder(path: path, out: out, info: info, error: error, errorSize: errorSize) { (path: String) throws(DecoderOpenError) in
                try openFFmpeg(hostAPI: hostAPI, path: path, metadata: metadata)
            }
        }
    )
}

private let descriptor = PluginDescriptor(
    id: pluginID, name: "Everything else (FFmpeg)", version: "1.0.0",
    description: "what no other decoder claims, through FFmpeg: WAV, AIFF, ALAC, WMA, Matroska/WebM, AC-3, Speex, WavPack, APE, Musepack, TTA",
    capabilities: ABP_CAP_SEEK | ABP_CAP_GAPLESS | ABP_CAP_TAGS | ABP_CAP_CHAPTERS | ABP_CAP_PICTURES,
    // Below every other decoder: it only breaks ties it would otherwise win by name.
    priority: -100,
    extensions: ContainerProbe.extensions,
    mimeTypes: [
        "audio/wav", "audio/x-wav", "audio/x-aiff", "audio/aiff", "audio/x-caf", "audio/x-alac", "audio/x-ms-wma",
        "audio/x-matroska", "audio/webm", "audio/ac3", "audio/eac3", "audio/x-speex", "audio/x-speex+ogg",
        "audio/x-flac+ogg", "audio/x-wavpack", "audio/x-ape", "audio/x-musepack", "audio/x-tta",
    ],
    decoder: makeOps()
)

@_cdecl("abplayer_plugin_entry")
public func abplayerPluginEntry(_ host: UnsafePointer<abp_host_api>?) -> UnsafePointer<abp_plugin>? {
    descriptor.entry(for: host)
}
