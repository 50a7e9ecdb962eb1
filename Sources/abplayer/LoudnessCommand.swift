import ArgumentParser
import Console
import Library
import Listening
import Player

/// `abplayer loudness measure BOOK`: what the REPL's `loudness measure` does, waiting for it.
struct LoudnessCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "loudness", abstract: "Measure books' loudness (EBU R128) for evening it out.",
        subcommands: [Measure.self])

    struct Measure: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Measure a book's integrated loudness and true peak now and keep them in the library.",
            discussion: """
                A book is measured by itself the first time it plays (in the background); this measures \
                it again now, waiting for the result. BOOK is its #id or a unique part of its title.
                """)
        @OptionGroup var library: LibraryOptions
        @OptionGroup var plugins: PluginOptions
        @Argument var book: String
        @Flag(name: .customLong("sample-peak"), help: "Measure the samples' peak instead of the true peak (about twice as fast).")
        var samplePeak = false

        func run() throws {
            let database = try library.openForEditing()
            let meter = LoudnessMeter(decoders: try plugins.makeRegistry(), truePeak: !samplePeak)
            try reportingLibraryErrors(database) {
                let target = try database.books.book(matching: book)
                let media = try database.books.items(ofBook: target.id!)
                let reading: LoudnessReading
                do {
                    reading = try meter.measure(paths: media.map(\.path))
                } catch {
                    printError("abplayer: loudness of #\(target.id!) \(target.title) could not be measured: \(error)")
                    throw ExitCode.failure
                }
                try database.settings.saveLoudness(reading, ofBook: target.id!, measuredOver: media)
                let preferences = try database.settings.playerPreferences()
                let settings = try database.settings.ofBook(target.id!)
                let goal = preferences.loudnessTargetLUFS ?? Loudness.defaultTargetLUFS
                let state: LoudnessState = Loudness.isOn(settings, preferences)
                    ? .measured(reading, gain: Loudness.gain(for: reading, target: goal)) : .off
                let report = LoudnessReport(book: "#\(target.id!) \(target.title)", state: state,
                                            source: settings.loudness == nil ? "default" : "book", targetLUFS: goal)
                print(TerminalText.visible(report.text))
            }
        }
    }
}
