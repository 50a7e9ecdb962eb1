public import Foundation

/// A format only FFmpeg's catch-all decoder reads here, as ffmpeg's own encoders write it.
public struct FFmpegFormat: Sendable, Hashable {
    /// ffmpeg's encoder (`-c:a`) and the file's extension (which picks the muxer).
    public let encoder: String
    public let fileExtension: String
    /// The time-coded source's rate and channels (Speex takes 8, 16 or 32 kHz; Opus is best fed 48 kHz).
    public let rate: Int
    public let channels: Int
    /// More encoder options.
    public let options: [String]

    public init(encoder: String, fileExtension: String, rate: Int = 44100, channels: Int = 2, options: [String] = []) {
        self.encoder = encoder
        self.fileExtension = fileExtension
        self.rate = rate
        self.channels = channels
        self.options = options
    }

    public static let wav16 = FFmpegFormat(encoder: "pcm_s16le", fileExtension: "wav")
    public static let wavFloat = FFmpegFormat(encoder: "pcm_f32le", fileExtension: "wav")
    public static let aiff = FFmpegFormat(encoder: "pcm_s16be", fileExtension: "aiff")
    public static let alac = FFmpegFormat(encoder: "alac", fileExtension: "m4a")
    /// ALAC in an audiobook's M4B (ffmpeg's ipod muxer).
    public static let alacM4B = FFmpegFormat(encoder: "alac", fileExtension: "m4b")
    /// MP3 in an MP4 container (`.m4a`; the ipod muxer refuses MP3, so `-f mp4`), which the AAC decoder declines.
    public static let mp3InMP4 = FFmpegFormat(encoder: "libmp3lame", fileExtension: "m4a", options: ["-b:a", "128k", "-f", "mp4"])
    public static let wma = FFmpegFormat(encoder: "wmav2", fileExtension: "wma", options: ["-b:a", "128k"])
    public static let ac3 = FFmpegFormat(encoder: "ac3", fileExtension: "ac3", options: ["-b:a", "192k"])
    public static let opusWebM = FFmpegFormat(encoder: "libopus", fileExtension: "webm", rate: 48000, options: ["-b:a", "96k"])
    public static let vorbisMKA = FFmpegFormat(encoder: "libvorbis", fileExtension: "mka", options: ["-q:a", "4"])
    public static let flacOgg = FFmpegFormat(encoder: "flac", fileExtension: "ogg")
    public static let speex = FFmpegFormat(encoder: "libspeex", fileExtension: "spx", rate: 16000, channels: 1)
    public static let wavpack = FFmpegFormat(encoder: "wavpack", fileExtension: "wv")
}

extension Fixtures {
    /// The time-coded signal encoded by ffmpeg in `format`, with `tags` (ffmetadata keys, `-metadata`)
    /// and `chapters` (from an ffmetadata file, where the muxer writes chapters: MP4, Matroska, ASF).
    public static func ffmpeg(
        _ format: FFmpegFormat, seconds: Int = 20, tags: [String: String] = [:], chapters: [FixtureChapter] = []
    ) throws -> URL {
        let source = try timeCodedWAV(seconds: seconds, rate: format.rate, channels: format.channels)
        let description = "\(format.options)|\(tags.sorted { $0.key < $1.key })|\(chapters.map { "\($0.startSeconds)=\($0.title)" })"
        let name = "ffmpeg/timecoded-\(seconds)s-\(format.rate)hz-\(format.channels)ch-\(format.encoder)-\(stableDigest(description)).\(format.fileExtension)"
        return try cache.file(named: name) { url in
            var arguments = ["-v", "error", "-y", "-i", source.path]
            let metadata = url.deletingLastPathComponent().appending(path: ".meta-\(UUID().uuidString).txt")
            defer { try? FileManager.default.removeItem(at: metadata) }
            if !chapters.isEmpty {
                try Data(ffmetadata(chapters: chapters, totalSeconds: Double(seconds)).utf8).write(to: metadata)
                arguments += ["-i", metadata.path, "-map_chapters", "1"]
            }
            arguments += ["-map", "0:a", "-c:a", format.encoder] + format.options
            for (key, value) in tags.sorted(by: { $0.key < $1.key }) { arguments += ["-metadata", "\(key)=\(value)"] }
            try Command.run("ffmpeg", arguments + [url.path]).requireSuccess()
        }
    }

    /// espeak-ng reading a passage (about 20 s) at the format's rate and channels, encoded by
    /// ffmpeg: for a speech codec whose decode after a seek settles on speech but not on steady
    /// tones (Speex: its pitch predictor carries a held tone's past indefinitely).
    public static func ffmpegSpeech(_ format: FFmpegFormat) throws -> URL {
        let name = "ffmpeg/speech-\(format.rate)hz-\(format.channels)ch-\(format.encoder)-\(stableDigest("\(format.options)")).\(format.fileExtension)"
        return try cache.file(named: name) { url in
            let folder = url.deletingLastPathComponent()
            let raw = folder.appending(path: ".speech-\(UUID().uuidString).wav")
            let source = folder.appending(path: ".speech-\(UUID().uuidString)-source.wav")
            defer {
                try? FileManager.default.removeItem(at: raw)
                try? FileManager.default.removeItem(at: source)
            }
            try Command.run("espeak-ng", ["-w", raw.path, speechPassage]).requireSuccess()
            try Command.run("sox", [raw.path, "-r", "\(format.rate)", "-c", "\(format.channels)", "-b", "16", source.path]).requireSuccess()
            try Command.run("ffmpeg", ["-v", "error", "-y", "-i", source.path, "-c:a", format.encoder] + format.options + [url.path])
                .requireSuccess()
        }
    }

    private static let speechPassage = """
        It was a bright cold day in April, and the clocks were striking thirteen. Winston Smith, his chin \
        nuzzled into his breast in an effort to escape the vile wind, slipped quickly through the glass doors \
        of Victory Mansions, though not quickly enough to prevent a swirl of gritty dust from entering along \
        with him. The hallway smelt of boiled cabbage and old rag mats.
        """
}
