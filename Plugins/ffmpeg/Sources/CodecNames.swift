import CFFmpeg

/// What the host shows of a stream's codec (abp_stream_info.codec): the name listeners know, from FFmpeg's
/// short codec name ("wmav2" is "WMA", "pcm_s16le" is "PCM", "pcm_f32le" "PCM float"), and the bits per sample a
/// lossless or PCM source stores (0 for a lossy codec).
enum CodecNames {
    private static let known: [String: String] = [
        "alac": "ALAC", "ac3": "AC-3", "eac3": "E-AC-3", "aac": "AAC", "mp3": "MP3", "mp2": "MP2", "opus": "Opus",
        "vorbis": "Vorbis", "flac": "FLAC", "speex": "Speex", "wavpack": "WavPack", "ape": "Monkey's Audio",
        "musepack7": "Musepack", "musepack8": "Musepack", "tta": "TTA", "tak": "TAK", "wmav1": "WMA", "wmav2": "WMA",
        "wmapro": "WMA Pro", "wmalossless": "WMA Lossless", "dts": "DTS", "truehd": "TrueHD", "mlp": "MLP",
        "amr_nb": "AMR-NB", "amr_wb": "AMR-WB", "shorten": "Shorten",
    ]

    static func name(_ ffmpegName: String) -> String {
        if let name = known[ffmpegName] { return name }
        if ffmpegName.hasPrefix("pcm_f") { return "PCM float" }
        if ffmpegName.hasPrefix("pcm_") { return "PCM" }
        if ffmpegName.hasPrefix("dsd_") { return "DSD" }
        return ffmpegName.uppercased()
    }

    /// Stored bits per sample: the raw samples' for lossless codecs, the coded sample's for PCM.
    static func bitsPerSample(_ parameters: AVCodecParameters, ffmpegName: String) -> Int {
        if parameters.bits_per_raw_sample > 0 { return Int(parameters.bits_per_raw_sample) }
        return ffmpegName.hasPrefix("pcm_") ? Int(parameters.bits_per_coded_sample) : 0
    }
}
