import ArgumentParser
import Foundation
import PlayerCore
import PluginHost

struct Decode: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Decode a file through the plugin pipeline into a float32 WAV file.",
        discussion: "Without -o the audio goes to the fallback output (null in this tree) as fast as it decodes: for timing decoders. -o picks the output plugin that writes files of its extension.")

    @OptionGroup var plugins: PluginOptions

    @Option(name: .shortAndLong, help: ArgumentHelp("The WAV file to write.", valueName: "OUT"))
    var output: String?

    @OptionGroup var range: TimeRangeOptions

    @Argument(help: "The audio file.", completion: .file())
    var file: String

    func validate() throws {
        try range.checkOrder()
    }

    func run() async throws {
        let (from, to) = (try range.from, try range.to)
        let registry = try plugins.makeRegistry()
        // Open once to learn the rate, so times become frames, and to fail early and clearly.
        let opened: any Decoder
        do {
            opened = try registry.openDecoder(path: file)
        } catch {
            printError("abplayer: \(error)")
            throw ExitCode.failure
        }
        let info = opened.info
        let format = info.format
        let startFrame = from.map(format.frames(inSeconds:)) ?? 0
        if let total = info.totalFrames, startFrame > total {
            printError("abplayer: \(file): --from \(Timecode.format(seconds: from)) is past the end (\(Timecode.format(seconds: format.seconds(inFrames: total))))")
            throw ExitCode.failure
        }
        let sinks: any SinkOpener
        do {
            guard let target = try output.map(registry.fileOutput(path:)) ?? registry.fallbackOutput else {
                throw OptionSyntaxError("no fallback output plugin is loaded to decode to; name a file with -o")
            }
            sinks = try registry.sinkOpener(for: registry.asFastAsDecoded(target))
        } catch {
            printError("abplayer: \(error)")
            throw ExitCode.failure
        }
        // Only a failure and the end matter here: taken on the engine's thread (`onEvent`), so its
        // ten position reports a second of audio (36,000 an hour, decoded in seconds) never wake
        // this task; measured, those wakes were a third of the command's system time.
        let (ending, ends) = AsyncStream.makeStream(of: PlaybackEvent.self)
        let engine = PlaybackEngine(decoders: OpenedFirst(opened, path: file, then: registry), sinks: sinks, ahead: .offline) { event in
            switch event {
            case .failed, .ended: ends.yield(event)
            default: break
            }
        }
        engine.load([file], start: PlaybackPosition(item: 0, frame: startFrame),
                    end: to.map { PlaybackPosition(item: 0, frame: format.frames(inSeconds: $0)) })
        var failed = false
        for await event in ending {
            switch event {
            case let .failed(_, error):
                printError("abplayer: \(error)")
                failed = true
            case .ended:
                engine.shutdown()
                ends.finish()
            default:
                break
            }
        }
        if failed { throw ExitCode.failure }
    }
}

/// Hands the engine the decoder already opened to learn the rate, rather than opening (and, for an
/// MP3 without a seek table, scanning) the file twice; later opens go to the registry.
private final class OpenedFirst: DecoderOpener, @unchecked Sendable {
    private let path: String
    private let registry: PluginRegistry
    private let lock = NSLock()
    private var opened: (any Decoder)?

    init(_ opened: any Decoder, path: String, then registry: PluginRegistry) {
        self.opened = opened
        self.path = path
        self.registry = registry
    }

    func openDecoder(path: String) throws -> any Decoder {
        let reused: (any Decoder)? = lock.withLock {
            defer { opened = nil }
            return path == self.path ? opened : nil
        }
        return try reused ?? registry.openDecoder(path: path)
    }
}
