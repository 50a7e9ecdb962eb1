import ArgumentParser
import Console
import Foundation
import PlayerCore
import PluginHost

struct Probe: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show what abplayer sees in audio files: plugin, format, duration, tags, chapters, cover.")

    @OptionGroup var plugins: PluginOptions

    @Flag(help: "Print one JSON object per file, one per line.")
    var json = false

    @Argument(help: "Audio files.", completion: .file())
    var files: [String]

    func run() throws {
        let registry = try plugins.makeRegistry()
        var failures = 0
        for file in files {
            do {
                let decoder = try registry.openDecoder(path: file)
                let report = ProbeReport(path: file, decoder: decoder)
                print(json ? report.json : report.text)
            } catch let error as AudioError {
                failures += 1
                // A file that does not play may still show what it is (tags, chapters).
                if let unplayable = error.unplayable {
                    let report = ProbeReport(path: file, unplayable: unplayable, reason: error.reason)
                    print(json ? report.json : report.text)
                }
                printError("abplayer: \(error)")
            } catch {
                failures += 1
                printError("abplayer: \(error)")
            }
        }
        if failures > 0 { throw ExitCode.failure }
    }
}

/// What `probe` prints about one file.
struct ProbeReport: Encodable {
    struct ChapterEntry: Encodable {
        let start: Double
        let startFrame: Int64
        let title: String
    }

    struct CoverEntry: Encodable {
        let mimeType: String
        let bytes: Int
    }

    let path: String
    let plugin: String
    let rate: Int
    let channels: Int
    /// Seconds; nil (JSON null) when the stream does not say.
    let duration: Double?
    let frames: Int64?
    let seekable: Bool
    /// The codec's name and the source's bits per sample, as the decoder says them (JSON:
    /// absent when it does not).
    let codec: String?
    let bitsPerSample: Int?
    let tags: [String: String]
    let chapters: [ChapterEntry]
    let cover: CoverEntry?
    /// Why the file does not play, for a file whose decoder could read only its metadata (JSON:
    /// absent when it plays; rate and channels are then 0 unless the decoder knew them).
    let unplayable: String?

    init(path: String, decoder: any Decoder) {
        self.init(path: path, plugin: decoder.pluginID, format: decoder.info.format, info: decoder.info,
                  metadata: decoder.metadata, unplayable: nil)
    }

    init(path: String, unplayable media: UnplayableMedia, reason: String) {
        self.init(path: path, plugin: media.pluginID, format: media.format, info: nil, metadata: media.metadata, unplayable: reason)
    }

    private init(path: String, plugin: String, format: AudioFormat?, info: StreamInfo?, metadata: MediaMetadata, unplayable: String?) {
        self.path = path
        self.plugin = plugin
        rate = format?.rate ?? 0
        channels = format?.channels ?? 0
        frames = info?.totalFrames
        duration = frames.flatMap { frames in format.map { $0.seconds(inFrames: frames) } }
        seekable = info?.isSeekable ?? false
        codec = info?.codec
        bitsPerSample = info?.bitsPerSample
        tags = Dictionary(metadata.tags.joined.map { ($0.key, $0.value) }) { first, _ in first }
        // Without a rate (a file that does not play and never said it) a start is only a frame.
        chapters = metadata.chapters.map {
            ChapterEntry(start: format?.seconds(inFrames: $0.startFrame) ?? 0, startFrame: $0.startFrame, title: $0.title)
        }
        cover = metadata.cover.map { CoverEntry(mimeType: $0.mimeType, bytes: $0.data.count) }
        self.unplayable = unplayable
    }

    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }

    /// The report for people: each value from the file (tags, chapter titles, the path) on its
    /// line, made visible by `TerminalText`; `json` keeps them exact.
    var text: String {
        let shown = TerminalText.visible
        var lines = [shown(path)]
        lines.append("  plugin:    \(plugin)")
        if let unplayable {
            lines.append("  plays:     no: \(shown(unplayable))")
        } else {
            if codec != nil || bitsPerSample != nil {
                lines.append("  codec:     " + [codec.map(shown), bitsPerSample.map { "\($0)-bit" }].compactMap { $0 }.joined(separator: ", "))
            }
            lines.append("  format:    \(AudioFormat(rate: rate, channels: channels))")
            let length = frames.map { "\(Timecode.format(seconds: duration)) (\($0) frames)" } ?? "unknown"
            lines.append("  duration:  \(length)")
            lines.append("  seekable:  \(seekable ? "yes" : "no")")
        }
        for key in tags.keys.sorted() {
            // A key longer than the column (encoder_options, longdescription) keeps a space.
            let label = "  \(shown(key)): "
            lines.append(label.padding(toLength: max(13, label.count), withPad: " ", startingAt: 0) + shown(tags[key]!))
        }
        lines.append("  chapters:  \(chapters.count)")
        for (index, chapter) in chapters.enumerated() {
            lines.append("    \(index + 1)  \(Timecode.format(seconds: chapter.start))  \(shown(chapter.title))")
        }
        lines.append("  cover:     " + (cover.map { "yes (\(shown($0.mimeType)), \($0.bytes) bytes)" } ?? "no"))
        return lines.joined(separator: "\n")
    }
}
