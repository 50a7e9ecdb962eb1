import ArgumentParser
import Console
import Foundation
import Library
import Listening
import Player
import PlayerCore
import PluginHost
import StandardStreams
import Synchronization

struct Play: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play files in order to an audio output, then exit.",
        discussion: """
            Without --output, the first output plugin that opens, by the priority each declares \
            (PulseAudio, then JACK, then ALSA's default device in this tree), else a fallback such \
            as null, with a warning. While playing, standard input takes the REPL's commands, one a \
            line: pause, resume, +30, status, output ID[:ARG] (switch outputs, keeping the place), \
            speed X, volume P, stop... Nothing is saved: `import` and `listen` keep a book's place.
            """)

    @OptionGroup var plugins: PluginOptions

    @Option(help: ArgumentHelp("Where to play: \(PluginRegistry.outputSyntax), an output plugin's id with its argument and options (`abplayer plugins`).", valueName: "OUTPUT"))
    var output: String?

    @OptionGroup var range: TimeRangeOptions

    @Option(help: ArgumentHelp("Play at this speed, the pitch kept (0.5 to 4).", valueName: "X"))
    var speed: Double = 1

    @Option(help: ArgumentHelp("Play at this volume in percent (0 to 150; above 100 may clip).", valueName: "P"))
    var volume: Double = 100

    @Option(name: .customLong("skip-silence"), help: ArgumentHelp("Shorten silences to a short pause: on (silences of 600 ms or more), off, or the shortest silence in milliseconds (300 to 60000).", valueName: "on|off|MS"))
    var skipSilence: String?

    @Option(name: .customLong("skip-intro"), help: ArgumentHelp("Leave out the first T of every file (an intro each file repeats): a time up to 10m (30, 30s, 1:15).", valueName: "T"))
    var skipIntro: String?

    @Option(name: .customLong("skip-outro"), help: ArgumentHelp("Leave out the last T of every file (credits each file repeats): a time up to 10m.", valueName: "T"))
    var skipOutro: String?

    @Argument(help: "Audio files, played in this order.", completion: .file())
    var files: [String]

    func validate() throws {
        if files.isEmpty { throw ValidationError("name at least one file to play") }
        try range.checkOrder(sameFile: files.count == 1)
        try refuse(option: "--speed", Self.problem { () throws(RefusedValue) in try SettingText.check(speed: speed) })
        try refuse(option: "--volume", Self.problem { () throws(RefusedValue) in try SettingText.check(volume: volume) })
    }

    func run() async throws {
        let (from, to) = (try range.from, try range.to)
        let registry = try plugins.makeRegistry()
        // `play` is an adapter over the player controller, like `listen` and the REPL. Its book
        // lives in a library in memory: the files as given, nothing saved anywhere.
        let library = try LibraryDatabase()
        let book = try FilesBook(files: files, library: library, inspector: DecoderInspector(decoders: registry))
        let failed = !book.skipped.isEmpty
        for file in book.skipped { printError("abplayer: \(file.path): \(file.reason)") }
        guard !book.media.isEmpty else { throw ExitCode.failure }
        let skipSilence = try optionValue("--skip-silence", self.skipSilence, SkipSilenceText.parse) ?? .off
        let intro = try optionValue("--skip-intro", skipIntro, IntroOutroText.parse) ?? 0
        let outro = try optionValue("--skip-outro", skipOutro, IntroOutroText.parse) ?? 0
        try book.prepare(from: from, speed: speed, volume: volume, skipSilence: skipSilence, intro: intro, outro: outro)

        let chosen: OutputChoice
        if let output {
            chosen = try registry.resolveOutput(output)
        } else if let automatic = registry.automaticOutput(for: AudioFormat(rate: book.media[0].sampleRate, channels: 2)) {
            if let warning = automatic.warning { printError("abplayer: \(warning)") }
            chosen = automatic.choice
        } else {
            printError("abplayer: no output plugin opens (`abplayer plugins` lists what was found); name one with --output")
            throw ExitCode.failure
        }

        // A face of the player service like `listen` and the REPL: the controller plays the book,
        // and the command grammar runs the lines of standard input (every REPL command: `+30`,
        // `status`, `output jack`, `speed +0.1`, `stop`...), answered on standard output. What
        // is `play`'s own (`PlayFace`): each file named as it starts, the exact places in its
        // notices, and the end of the files (or `stop`) is the end of the command.
        let service = PlayerService(library: library, decoders: registry, outputs: .fromRegistry(registry, inRealTime: false),
                                    output: chosen.description)
        let player = service.player
        let inputs = service.inputs
        let view = PlayView(player: player, rates: book.media.map(\.sampleRate))
        player.onNotice = { view.show($0) }
        // The signal's number, for the exit status (128 + it), set on the signals' thread.
        let signalled = Atomic<Int32>(0)
        let signals = TerminationSignals { number in
            signalled.store(number, ordering: .relaxed)
            inputs.yield(.terminate)
        }
        // Like a pipeline's end: whoever wanted the output has what they wanted.
        StandardStream.onReaderGone { _ in inputs.yield(.terminate) }
        do {
            if let end = book.end(to: to) {
                try player.perform(.playUntil(bookId: book.id, end: end))
            } else {
                try player.perform(.play(bookId: book.id))
            }
        } catch {
            printError("abplayer: \(error)")
            throw ExitCode.failure
        }
        // Only now (the face starts reading): a command already waiting on stdin (`speed 1.5`,
        // `stop`) must act on the loaded book, not be overtaken by the options' settings or the load.
        _ = await service.run(PlayFace(service: service, view: view))
        withExtendedLifetime(signals) {}
        let signal = signalled.load(ordering: .relaxed)
        if signal != 0 { throw ExitCode(128 + signal) }
        if failed || view.failed { throw ExitCode.failure }
    }

    /// Why a check refused a value; nil when it passed.
    private static func problem(_ check: () throws(RefusedValue) -> Void) -> String? {
        do {
            try check()
            return nil
        } catch {
            return error.description
        }
    }
}

/// `play`'s face of the player: the REPL's commands from standard input (its end leaves the files
/// playing to their end), each file named as it starts (`PlayView`), and the end of the files, a
/// lost output device or `stop` the end.
final class PlayFace: PlayerFace {
    private let service: PlayerService
    private let view: PlayView

    init(service: PlayerService, view: PlayView) {
        self.service = service
        self.view = view
        service.commands.answersFollow = true
        // Nothing is saved: a stop must not say the place was.
        service.commands.keepsPlaces = false
    }

    func start(into inputs: AsyncStream<ConsoleInput>.Continuation) {
        LinesFace.readStandardInput(into: inputs)
    }

    func handle(_ input: ConsoleInput) -> FaceVerdict {
        guard case let .line(line) = input else { return .goOn } // nobody types to it: it plays the files to their end
        if service.commands.execute(line: line) == .quit { return .stop }
        // `stop`, or the book taken away: nothing left to play.
        return service.player.loadedBook == nil ? .stop : .goOn
    }

    func followed(_ event: PlayerInput) -> FaceVerdict {
        guard case let .engine(event, _) = event else { return .goOn }
        view.follow(event)
        if case let .failed(_, error) = event, error.kind == .device { return .stop }
        if case .ended = event { return .stop }
        return view.outputNeverOpened ? .stop : .goOn
    }
}

/// The files given to `play` as a book of a library in memory, in the order given. Files that
/// cannot be played are left out (`skipped`, with the reason); --from and --to are times in the
/// first and the last file given, and apply only when those files are in the book.
struct FilesBook {
    let id: Int64
    let library: LibraryDatabase
    let media: [Media]
    let skipped: [SkippedFile]
    private let firstGivenPlays: Bool
    private let lastGivenPlays: Bool

    init(files: [String], library: LibraryDatabase, inspector: any MediaInspector) throws {
        self.library = library
        id = try library.books.createBook(title: ((files[0] as NSString).lastPathComponent as NSString).deletingPathExtension)
        skipped = try library.books.addFiles(files, toBook: id, inspector: inspector).skipped
        // Skipped files are named by their absolute path: whether the first and the last file
        // given are in decides whether --from and --to apply.
        let refused = Set(skipped.map(\.path))
        media = try library.books.items(ofBook: id)
        firstGivenPlays = !refused.contains(BookStore.absolutePath(files[0]))
        lastGivenPlays = !refused.contains(BookStore.absolutePath(files[files.count - 1]))
    }

    /// The speed and volume asked for, the place to start (`--from`), and no auto-rewind: `play`
    /// resumes where it paused, like a music player.
    func prepare(from: Double?, speed: Double, volume: Double, skipSilence: SkipSilence = .off, intro: Double = 0, outro: Double = 0) throws {
        var settings = try library.settings.ofBook(id)
        settings.skipSilence = skipSilence
        settings.skipIntroSeconds = intro
        settings.skipOutroSeconds = outro
        settings.speed = speed
        settings.volume = volume
        try library.settings.save(settings)
        var preferences = try library.settings.playerPreferences()
        preferences.autoRewind = false
        // Files played as given are heard as they are, like a music player plays them; a
        // library in memory would measure their loudness again at every run.
        preferences.loudness = false
        try library.settings.savePlayerPreferences(preferences)
        if let from, firstGivenPlays, let first = media.first {
            try library.positions.savePosition(bookId: id, mediaId: first.id!, frame: Self.frames(from, rate: first.sampleRate))
        }
    }

    /// Where `--to` ends the book, if given.
    func end(to: Double?) -> PlaybackPosition? {
        guard let to, lastGivenPlays, let last = media.last else { return nil }
        return PlaybackPosition(item: media.count - 1, frame: Self.frames(to, rate: last.sampleRate))
    }

    private static func frames(_ seconds: Double, rate: Int) -> Int64 {
        AudioFormat(rate: rate, channels: 2).frames(inSeconds: seconds)
    }
}
