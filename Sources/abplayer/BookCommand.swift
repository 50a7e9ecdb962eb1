import ArgumentParser
import Console
import Library
import Listening
import Player
import PlayerCore

struct BookCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "book", abstract: "Edit a book (BOOK is its #id or a unique part of its title).",
        subcommands: [Rename.self, Move.self, Remove.self, MoveItem.self, AddFiles.self, RemoveItems.self, Settings.self])

    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Give a book a new title.")
        @OptionGroup var library: LibraryOptions
        @Argument var book: String
        @Argument var title: String

        func run() throws {
            let database = try library.openForEditing()
            try reportingLibraryErrors(database) { try database.books.renameBook(database.books.book(matching: book).id!, to: title) }
        }
    }

    struct Move: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "mv", abstract: "Put a book on a shelf (created if missing), or on none.")
        @OptionGroup var library: LibraryOptions
        @Argument var book: String
        @Argument(help: "The shelf's path.") var shelf: String?

        func run() throws {
            let database = try library.openForEditing()
            try reportingLibraryErrors(database) { try database.books.moveBook(database.books.book(matching: book).id!, toShelf: shelf) }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete a book with its position, bookmarks and history (its files are not touched).")
        @OptionGroup var library: LibraryOptions
        @Argument var book: String

        func run() throws {
            let database = try library.openForEditing()
            try reportingLibraryErrors(database) { try database.books.deleteBook(database.books.book(matching: book).id!) }
        }
    }

    struct MoveItem: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "move-item", abstract: "Move item FROM to place TO (1-based, as `books` numbers them).")
        @OptionGroup var library: LibraryOptions
        @Argument var book: String
        @Argument var from: Int
        @Argument var to: Int

        func run() throws {
            let database = try library.openForEditing()
            try reportingLibraryErrors(database) { try database.books.moveItem(ofBook: database.books.book(matching: book).id!, from: from - 1, to: to - 1) }
        }
    }

    struct AddFiles: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Import files and append them to a book.")
        @OptionGroup var library: LibraryOptions
        @OptionGroup var plugins: PluginOptions
        @Argument var book: String
        @Argument(completion: .file()) var files: [String]

        func run() throws {
            let database = try library.openForEditing()
            let inspector = DecoderInspector(decoders: try plugins.makeRegistry())
            try reportingLibraryErrors(database) {
                let target = try database.books.book(matching: book)
                let (added, skipped) = try database.books.addFiles(files, toBook: target.id!, inspector: inspector)
                for file in skipped { printError("abplayer: skipped \(file.path): \(file.reason)") }
                print(TerminalText.visible("added \(LibraryText.counted(added, "file")) to #\(target.id!) \(target.title)"))
            }
        }
    }

    struct RemoveItems: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove-item", abstract: "Remove items (1-based numbers) from a book.")
        @OptionGroup var library: LibraryOptions
        @Argument var book: String
        @Argument var items: [Int]

        func run() throws {
            let database = try library.openForEditing()
            try reportingLibraryErrors(database) {
                let id = try database.books.book(matching: book).id!
                let media = try database.books.items(ofBook: id)
                guard items.allSatisfy({ media.indices.contains($0 - 1) }) else {
                    throw LibraryError.invalid("item numbers run from 1 to \(media.count)")
                }
                try database.books.removeItems(fromBook: id, mediaIds: items.map { media[$0 - 1].id! })
            }
        }
    }

    struct Settings: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show or change a book's volume, speed, shuffle, skip interval and sleep-timer default.",
            discussion: """
                The units are the REPL's: volume in percent, speed as a factor, times as \(Timecode.forms) \
                (a bare number is seconds). A value out of range is refused with the range, never clamped, \
                and then nothing is changed.
                """)
        @OptionGroup var library: LibraryOptions
        @Argument var book: String
        @Option(help: ArgumentHelp("Percent, 0 to 150 (100 = as recorded; above 100 may clip).", valueName: "P")) var volume: String?
        @Option(help: ArgumentHelp("0.5 to 4 (1 = normal), the pitch kept; default: follow the listener's default (the REPL's 'set speed').", valueName: "X")) var speed: String?
        @Option(help: "true or false.") var shuffle: Bool?
        @Option(help: ArgumentHelp("What +/- skip: a time from 1s to 1h (30, 30s, 1:30); default: follow 'set skip'.", valueName: "T")) var skip: String?
        @Option(name: .customLong("sleep-timer"), help: ArgumentHelp("The book's own sleep timer, armed when it starts (over the REPL's 'set sleep'): minutes (30) or a time from 1s to 24h (45s, 1:15:00), or off (the listener's default then).", valueName: "T"))
        var sleepTimer: String?
        @Option(name: .customLong("skip-silence"), help: ArgumentHelp("Shorten silences to a short pause: on (silences of 600 ms or more), off, the shortest silence in milliseconds (300 to 60000), or default (follow the REPL's 'set silence').", valueName: "on|off|MS|default"))
        var skipSilence: String?
        @Option(help: ArgumentHelp("Even out the book's loudness (on), play it as recorded (off), or follow the REPL's 'set loudness' (default).", valueName: "on|off|default"))
        var loudness: String?
        @Option(name: .customLong("skip-intro"), help: ArgumentHelp("Leave out the first T of every file of the book (a repeated intro): a time up to 10m (30, 30s, 1:15), off, or default (follow the REPL's 'set intro').", valueName: "T|off|default"))
        var skipIntro: String?
        @Option(name: .customLong("skip-outro"), help: ArgumentHelp("Leave out the last T of every file of the book (repeated credits): a time up to 10m, off, or default (follow the REPL's 'set outro').", valueName: "T|off|default"))
        var skipOutro: String?

        func run() throws {
            // Every value is checked before anything is written.
            let volume = try optionValue("--volume", self.volume, SettingText.volume)
            // `default`: the book's own setting is dropped and the listener's default applies.
            let speedDefault = self.speed == "default", skipDefault = self.skip == "default"
            let speed = speedDefault ? nil : try optionValue("--speed", self.speed, SettingText.speed)
            let skip = skipDefault ? nil : try optionValue("--skip", self.skip, SettingText.skip)
            // `0` was "none" when the option took minutes; it still is.
            let sleepTimerOff = sleepTimer == "off" || sleepTimer == "0"
            let sleepTimer = sleepTimerOff ? nil : try optionValue("--sleep-timer", self.sleepTimer, SettingText.sleep)
            let skipSilenceDefault = self.skipSilence == "default"
            let skipSilence = skipSilenceDefault ? nil : try optionValue("--skip-silence", self.skipSilence, SkipSilenceText.parse)
            let skipIntroDefault = self.skipIntro == "default", skipOutroDefault = self.skipOutro == "default"
            let skipIntro = skipIntroDefault ? nil : try optionValue("--skip-intro", self.skipIntro, IntroOutroText.parse)
            let skipOutro = skipOutroDefault ? nil : try optionValue("--skip-outro", self.skipOutro, IntroOutroText.parse)
            guard loudness == nil || ["on", "off", "default"].contains(loudness!) else {
                printError("abplayer: --loudness: '\(loudness!)' is not understood: use on, off or default")
                throw ExitCode.validationFailure
            }
            let changes = volume != nil || speed != nil || skip != nil || self.sleepTimer != nil || shuffle != nil
                || speedDefault || skipDefault || self.skipSilence != nil || loudness != nil || self.skipIntro != nil || self.skipOutro != nil
            let database = try changes ? library.openForEditing() : library.open()
            try reportingLibraryErrors(database) {
                let id = try database.books.book(matching: book).id!
                var settings = try database.settings.ofBook(id)
                if let volume { settings.volume = volume }
                if let speed { settings.speed = speed }
                if let shuffle { settings.shuffle = shuffle }
                if let skip { settings.skipIntervalSeconds = skip }
                if speedDefault { settings.ownSpeed = nil }
                if skipDefault { settings.ownSkipIntervalSeconds = nil }
                if let sleepTimer { settings.sleepTimerSeconds = sleepTimer }
                if sleepTimerOff { settings.sleepTimerSeconds = nil }
                if let skipSilence { settings.skipSilence = skipSilence }
                if skipSilenceDefault { settings.ownSkipSilence = nil }
                if let loudness { settings.loudness = loudness == "default" ? nil : loudness == "on" }
                if let skipIntro { settings.skipIntroSeconds = skipIntro }
                if skipIntroDefault { settings.ownSkipIntroSeconds = nil }
                if let skipOutro { settings.skipOutroSeconds = skipOutro }
                if skipOutroDefault { settings.ownSkipOutroSeconds = nil }
                if changes {
                    try database.settings.save(settings)
                }
                print(Self.describe(settings))
            }
        }

        /// "volume 80 %, speed 1.25x, skip 30 s (default), sleep timer 30:00, shuffle off": "(default)"
        /// where the book has no setting of its own and the listener's default applies.
        static func describe(_ settings: BookSettings) -> String {
            let speedDefault = settings.ownSpeed == nil ? " (default)" : ""
            let skipDefault = settings.ownSkipIntervalSeconds == nil ? " (default)" : ""
            return "volume \(SettingText.volumeText(settings.volume))\(settings.volume > 100 ? " (boost)" : ""), "
                + "speed \(SettingText.speedText(settings.speed))\(speedDefault), "
                + "skip \(SettingText.secondsText(settings.skipIntervalSeconds))\(skipDefault), "
                + "sleep timer \(settings.sleepTimerSeconds.map { Timecode.format(seconds: $0) } ?? "off"), "
                + "shuffle \(settings.shuffle ? "on" : "off")"
                // Said once it concerns the book: on, or set for it (a feature off everywhere is not news).
                + (settings.skipSilence == .off && settings.ownSkipSilence == nil ? ""
                    : ", skip silence \(SkipSilenceText.text(settings.skipSilence))\(settings.ownSkipSilence == nil ? " (default)" : "")")
                // Said only when the book has its own (`--loudness`): else the listener's default applies.
                + (settings.loudness.map { ", loudness \($0 ? "on" : "off")" } ?? "")
                // As skip silence: said once it concerns the book.
                + Self.trimText("intro", settings.skipIntroSeconds, own: settings.ownSkipIntroSeconds != nil)
                + Self.trimText("outro", settings.skipOutroSeconds, own: settings.ownSkipOutroSeconds != nil)
        }

        /// ", skip intro 30s", ", skip outro off" (the book's own), ", skip intro 30s (default)".
        static func trimText(_ name: String, _ seconds: Double, own: Bool) -> String {
            seconds == 0 && !own ? "" : ", skip \(name) \(IntroOutroText.text(seconds))\(own ? "" : " (default)")"
        }
    }
}
