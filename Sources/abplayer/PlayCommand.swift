import ArgumentParser
import Console
import Foundation
import PlayerCore
import PluginHost
import Synchronization

struct Play: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play files in order to an audio output, then exit.",
        discussion: """
            Without --output, the first output plugin that opens, by the priority each declares \
            (PulseAudio, then JACK, then ALSA's default device in this tree), else a fallback such \
            as null, with a warning. While playing, standard input takes one command a line: \
            pause, resume, status, output ID[:ARG] (switch outputs, keeping the place), speed X, \
            volume P, stop.
            """)

    @OptionGroup var plugins: PluginOptions

    @Option(help: ArgumentHelp("Where to play: \(PluginRegistry.outputSyntax), an output plugin's id with its argument and options (`abplayer plugins`).", valueName: "OUTPUT"))
    var output: String?

    @OptionGroup var range: TimeRangeOptions

    @Option(help: ArgumentHelp("Play at this speed, the pitch kept (0.5 to 4).", valueName: "X"))
    var speed: Double = 1

    @Option(help: ArgumentHelp("Play at this volume in percent (0 to 150; above 100 may clip).", valueName: "P"))
    var volume: Double = 100

    @Argument(help: "Audio files, played in this order.", completion: .file())
    var files: [String]

    func validate() throws {
        if files.isEmpty { throw ValidationError("name at least one file to play") }
        try range.checkOrder(sameFile: files.count == 1)
        try refuse(option: "--speed", PlayInput.speedProblem(speed))
        try refuse(option: "--volume", PlayInput.volumeProblem(volume))
    }

    func run() async throws {
        let (from, to) = (try range.from, try range.to)
        let registry = try plugins.makeRegistry()
        // The formats of the first and last files turn --from/--to into frames and let the
        // output be chosen for real audio. A file that does not open is reported by the engine.
        let firstFormat = try? registry.openDecoder(path: files[0]).info.format
        let lastFormat = files.count == 1 ? firstFormat : try? registry.openDecoder(path: files[files.count - 1]).info.format
        let chosen: OutputChoice
        if let output {
            chosen = try registry.resolveOutput(output)
        } else if let automatic = registry.automaticOutput(for: firstFormat ?? AudioFormat(rate: 44100, channels: 2)) {
            if let warning = automatic.warning { printError("abplayer: \(warning)") }
            chosen = automatic.choice
        } else {
            printError("abplayer: no output plugin opens (`abplayer plugins` lists what was found); name one with --output")
            throw ExitCode.failure
        }
        let sinks: any SinkOpener
        do {
            sinks = try registry.sinkOpener(for: chosen)
        } catch {
            printError("abplayer: \(error)")
            throw ExitCode.failure
        }
        let engine = PlaybackEngine(decoders: registry, sinks: sinks)
        let session = PlaySession(engine: engine, registry: registry, output: chosen)
        let start = PlaybackPosition(item: 0, frame: from.flatMap { seconds in firstFormat?.frames(inSeconds: seconds) } ?? 0)
        let end = to.flatMap { seconds in lastFormat.map { PlaybackPosition(item: files.count - 1, frame: $0.frames(inSeconds: seconds)) } }

        let signals = TerminationSignals { number in
            session.interrupted.store(number, ordering: .relaxed)
            engine.stop()
            engine.shutdown()
        }
        engine.setSpeed(speed)
        engine.setVolume(volume)
        engine.load(files, start: start, end: end)
        // Only now: a command already waiting on stdin (`speed 1.5`, `stop`) must act on the
        // loaded engine, not be overtaken by the options' settings or the load.
        PlayInput.readStandardInput { session.handle($0) }
        let failed = await session.run()
        withExtendedLifetime(signals) {}
        let signal = session.interrupted.load(ordering: .relaxed)
        if signal != 0 { throw ExitCode(128 + signal) }
        if failed { throw ExitCode.failure }
    }
}

/// One `play` run: follows the engine's events, tells the user about the output, and carries out
/// the commands read from standard input.
final class PlaySession: Sendable {
    let engine: PlaybackEngine
    let registry: PluginRegistry
    let output: Mutex<OutputChoice>
    /// The rate of each item heard so far, for showing positions as times.
    let rates = Mutex<[Int: Int]>([:])
    /// The signal that ended the run, or 0.
    let interrupted = Atomic<Int32>(0)

    init(engine: PlaybackEngine, registry: PluginRegistry, output: OutputChoice) {
        self.engine = engine
        self.registry = registry
        self.output = Mutex(output)
    }

    /// Follows the engine until it ends; true when something failed.
    func run() async -> Bool {
        var failed = false
        // Whether audio came out: a position reported while playing. Before that, a lost
        // output is one that never opened, and `play` fails at once instead of waiting for it.
        var state = PlaybackState.stopped
        var played = false
        for await event in engine.events {
            switch event {
            case let .itemChanged(info):
                rates.withLock { $0[info.index] = info.stream.format.rate }
                // A folder's file names come from the disk: shown visibly, like every text from files.
                printOutput("playing " + TerminalText.visible(info.path))
            case let .failed(_, error):
                printError("abplayer: \(error)")
                failed = true
                if error.kind == .device { engine.shutdown() }
            case .ended:
                engine.shutdown()
            case let .outputLost(message) where !played:
                printError("abplayer: \(message)")
                failed = true
                engine.shutdown()
            case let .outputLost(message):
                printError("abplayer: output lost: \(message); paused at \(place); resuming there when it is back")
            case .outputRestored:
                printError("abplayer: output back; playing from \(place)")
            case let .outputMoved(message):
                // Headphones unplugged: the book must not go on through the room's speakers.
                // It stays paused until the user says `resume`, which plays on the new sink.
                printError("abplayer: \(message); paused at \(place); `resume` continues on the new sink")
            case .outputChanged:
                printError("abplayer: now playing to \(output.withLock { $0 }) from \(place)")
            case let .stateChanged(newState):
                state = newState
            case .position:
                if state == .playing { played = true }
            case .speedChanged, .volumeChanged, .fadedOut, .fadeCancelled:
                break
            }
        }
        return failed
    }

    func handle(_ command: PlayInput) {
        switch command {
        case .pause: engine.pause()
        case .resume: engine.play()
        case .stop:
            engine.stop()
            engine.shutdown()
        case .status:
            printOutput("status \(engine.state) \(place) output=\(output.withLock { $0 }) speed=\(engine.speed) volume=\(engine.volume)")
        case let .speed(speed): engine.setSpeed(speed)
        case let .volume(percent): engine.setVolume(percent)
        case let .output(name):
            do {
                let chosen = try registry.output(named: name)
                engine.setOutput(try registry.sinkOpener(for: chosen))
                output.withLock { $0 = chosen }
            } catch {
                printError("abplayer: \(error)")
            }
        }
    }

    /// The place heard now, as a time and as exact numbers: `0:12.345 (item 0, frame 544000)`.
    var place: String {
        guard let position = engine.position else { return "the start" }
        let rate = rates.withLock { $0[position.item] }
        let time = rate.map { Timecode.format(seconds: Double(position.frame) / Double($0)) } ?? "?"
        return "\(time) (item \(position.item), frame \(position.frame))"
    }
}

/// Writes one line to standard output at once (unbuffered: a program reading a pipe sees it now).
func printOutput(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
