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
    let tags: [String: String]
    let chapters: [ChapterEntry]
    let cover: CoverEntry?

    init(path: String, decoder: any Decoder) {
        let format = decoder.info.format
        self.path = path
        plugin = decoder.pluginID
        rate = format.rate
        channels = format.channels
        frames = decoder.info.totalFrames
        duration = frames.map { format.seconds(inFrames: $0) }
        seekable = decoder.info.isSeekable
        tags = Dictionary(decoder.metadata.tags.joined.map { ($0.key, $0.value) }) { first, _ in first }
        chapters = decoder.metadata.chapters.map {
            ChapterEntry(start: format.seconds(inFrames: $0.startFrame), startFrame: $0.startFrame, title: $0.title)
        }
        cover = decoder.metadata.cover.map { CoverEntry(mimeType: $0.mimeType, bytes: $0.data.count) }
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
        lines.append("  format:    \(AudioFormat(rate: rate, channels: channels))")
        let length = frames.map { "\(Timecode.format(seconds: duration)) (\($0) frames)" } ?? "unknown"
        lines.append("  duration:  \(length)")
        lines.append("  seekable:  \(seekable ? "yes" : "no")")
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
