import Foundation

/// Everything `opusenc` is told when making an Opus fixture, kept so that `withChapters` can make
/// the same file again with chapters: ffmpeg's Ogg muxer drops chapters for Opus, and decoding and
/// re-encoding would change the audio.
struct OpusRecipe: Sendable {
    struct Chapter: Sendable {
        var startSeconds: Double
        var title: String
    }

    var seconds: Int
    var rate: Int
    var channels: Int
    /// kbit/s.
    var bitrate: Int
    var tags: [String: String]
    var chapters: [Chapter]
    var cover: URL?

    /// Unique for each distinct recipe and stable across processes.
    var fileName: String {
        var name = "timecoded-\(seconds)s-\(rate)hz-\(channels)ch-\(bitrate)k"
        if !tags.isEmpty || !chapters.isEmpty || cover != nil {
            let tagText = tags.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "\u{1}")
            let chapterText = chapters.map { "\($0.startSeconds)=\($0.title)" }.joined(separator: "\u{1}")
            name += "-" + stableDigest([tagText, chapterText, cover?.path ?? ""].joined(separator: "\u{2}"))
        }
        return name + ".opus"
    }

    /// `title`, `artist` and `album` (any case) use opusenc's own flags; other tags and the
    /// chapters go in as `--comment KEY=VALUE`. Chapters follow the Vorbis comment chapter
    /// extension: CHAPTER001=HH:MM:SS.mmm and CHAPTER001NAME=title, numbered from 001.
    func arguments(input: URL, output: URL) -> [String] {
        var arguments = ["--quiet", "--bitrate", String(bitrate)]
        for (key, value) in tags.sorted(by: { $0.key < $1.key }) {
            switch key.lowercased() {
            case "title", "artist", "album": arguments += ["--\(key.lowercased())", value]
            default: arguments += ["--comment", "\(key)=\(value)"]
            }
        }
        for (index, chapter) in chapters.enumerated() {
            let number = String(format: "%03d", index + 1)
            arguments += ["--comment", "CHAPTER\(number)=\(Self.timestamp(chapter.startSeconds))"]
            arguments += ["--comment", "CHAPTER\(number)NAME=\(chapter.title)"]
        }
        if let cover { arguments += ["--picture", cover.path] }
        return arguments + [input.path, output.path]
    }

    static func timestamp(_ seconds: Double) -> String {
        let milliseconds = Int((seconds * 1000).rounded())
        return String(
            format: "%02d:%02d:%02d.%03d",
            milliseconds / 3_600_000, milliseconds / 60_000 % 60, milliseconds / 1000 % 60, milliseconds % 1000
        )
    }
}
