import ArgumentParser
import Console
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

    @Option(help: ArgumentHelp("Where to play: \(OutputSpec.syntax) (wav: in real time). Default: the first that answers of PulseAudio, JACK, ALSA.", valueName: "SINK"),
            transform: { try OutputSpec(parsing: $0) })
    var output: OutputSpec?

    @Argument(help: "The book: #id or a unique part of its title.")
    var book: String

    func run() async throws {
        let database = try library.open()
        // One player per library: positions are written by one process only.
        guard let lock = try library.lockForPlaying() else {
            printError("abplayer: a player is already running on \(library.resolvedPath); use 'abplayer remote play \(Tokenizer.quoted(book))'")
            throw ExitCode.failure
        }
        defer { lock.release() }
        let (target, media, start, settings) = try reportingLibraryErrors {
            let target = try database.book(matching: book)
            let media = try database.items(ofBook: target.id!)
            if let missing = media.first(where: \.isMissing) {
                throw LibraryError.invalid("\(target.title): \(missing.path) is missing; run `abplayer rescan` (the saved position is kept)")
            }
            return (target, media, try database.startingPoint(ofBook: target.id!), try database.settings(ofBook: target.id!))
        }
        let registry = plugins.makeRegistry()
        let chosen = output ?? OutputChooser(registry: registry).choose(for: AudioFormat(rate: media[start.item].sampleRate, channels: 2))
        var options = chosen.options
        // Listening is in real time, also into a file.
        if case .wav = chosen { options["paced"] = "true" }
        let sinks: any SinkOpener
        do {
            sinks = try registry.sinkOpener(pluginID: chosen.pluginID, options: options)
        } catch {
            printError("abplayer: \(error)")
            throw ExitCode.failure
        }

        let engine = PlaybackEngine(decoders: registry, sinks: sinks)
        let startPosition = PlaybackPosition(item: start.item, frame: start.frame)
        // The book's own speed and volume (the library keeps the volume as a gain, 1 = 100 %; the
        // engine clamps what it cannot play).
        engine.setSpeed(settings.speed)
        engine.setVolume(settings.volume * 100)
        let recorder = ListeningRecorder(library: database, bookId: target.id!, mediaIds: media.map { $0.id! }, start: startPosition,
                                         speed: engine.speed)
        recorder.onError = { printError("abplayer: saving the position of \(target.title): \($0)") }
        let signals = TerminationSignals { _ in
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
            case let .outputLost(message):
                printError("abplayer: output lost: \(message); paused (position saved), resuming when it is back")
            case .outputRestored:
                printError("abplayer: output back; playing on")
            case let .outputMoved(message):
                // Headphones unplugged: not on through the speakers. `listen` takes no commands,
                // so it stops here, the position saved; listening again continues there.
                printError("abplayer: \(message); stopped (position saved): `abplayer listen` continues there")
                engine.shutdown()
            default: break
            }
        }
        recorder.finish(at: engine.position)
        withExtendedLifetime(signals) {}
    }
}
