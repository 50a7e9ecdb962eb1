import ArgumentParser
import Foundation
import Library
import Listening
import PlayerCore
import PluginHost

struct Listen: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play a book from its saved position, saving the position every second and at exit.",
        discussion: "A finished book starts again from the top. Ctrl-C (SIGINT) or SIGTERM saves and exits.")

    @OptionGroup var library: LibraryOptions
    @OptionGroup var plugins: PluginOptions

    @Option(help: ArgumentHelp("null (discard, in real time) or wav:PATH (a float32 WAV file, in real time).", valueName: "OUTPUT"))
    var output = "null"

    @Argument(help: "The book: #id or a unique part of its title.")
    var book: String

    func validate() throws {
        guard output == "null" || (output.hasPrefix("wav:") && output.count > 4) else {
            throw ValidationError("--output must be null or wav:PATH")
        }
    }

    func run() async throws {
        let database = try library.open()
        let (target, media, start) = try reportingLibraryErrors {
            let target = try database.book(matching: book)
            let media = try database.items(ofBook: target.id!)
            if let missing = media.first(where: \.isMissing) {
                throw LibraryError.invalid("\(target.title): \(missing.path) is missing; run `abplayer rescan` (the saved position is kept)")
            }
            return (target, media, try database.startingPoint(ofBook: target.id!))
        }
        let registry = plugins.makeRegistry()
        let sinks: any SinkOpener
        do {
            sinks = output == "null"
                ? try registry.sinkOpener(pluginID: "null", options: ["paced": "true"])
                : try registry.sinkOpener(pluginID: "wav", options: ["path": String(output.dropFirst(4)), "paced": "true"])
        } catch let error as AudioError {
            printError("abplayer: \(error)")
            throw ExitCode.failure
        }

        let engine = PlaybackEngine(decoders: registry, sinks: sinks)
        let startPosition = PlaybackPosition(item: start.item, frame: start.frame)
        let recorder = ListeningRecorder(library: database, bookId: target.id!, mediaIds: media.map { $0.id! }, start: startPosition)
        recorder.onError = { printError("abplayer: saving the position of \(target.title): \($0)") }
        let signals = ListenSignals { _ in
            engine.pause()
            engine.shutdown()
        }
        engine.load(media.map(\.path), start: startPosition)
        var announced = false
        for await event in engine.events {
            recorder.handle(event)
            switch event {
            case let .position(position) where !announced:
                // Said when the first audio is heard: scripts (and the kill -9 test) time from here.
                announced = true
                let seconds = Double(position.frame) / Double(media[position.item].sampleRate)
                printError("abplayer: playing #\(target.id!) \(target.title) from item \(position.item + 1) at \(String(format: "%.3f", seconds)) s")
            case let .failed(_, error): printError("abplayer: \(error)")
            case .ended: engine.shutdown()
            default: break
            }
        }
        recorder.finish(at: engine.position)
        withExtendedLifetime(signals) {}
    }
}
