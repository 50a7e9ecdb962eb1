import ArgumentParser
import Console
import Foundation
import Library
import Player

/// `abplayer sync`: your place, bookmarks and finished books the same on every computer, through
/// a folder that a file-sync tool (Syncthing, Nextcloud, rsync) keeps the same on each. Each
/// library writes only its own journal there.
struct Sync: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Keep places, bookmarks and finished books the same on every computer, through a synced folder.",
        subcommands: [Folder.self, Now.self, Status.self, AutoJump.self, Name.self, Repair.self], defaultSubcommand: Status.self)

    struct AutoJump: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "auto-jump",
            abstract: "on: playing the book loaded goes to another computer's later place (with an undo point); off: it is only said.")
        @OptionGroup var library: LibraryOptions
        @Argument(help: ArgumentHelp("on or off.", valueName: "on|off")) var setting: String

        func validate() throws {
            guard ["on", "off"].contains(setting) else { throw ValidationError("'\(setting)' is not on or off") }
        }

        func run() throws {
            // A running player keeps the settings it read: the change must go through it.
            let database = try library.openForEditing(remote: "sync auto-jump \(setting)")
            try reportingLibraryErrors(database) {
                try database.sync.setJumpOnStart(setting == "on")
                print(SyncText.jumpOnStartLine(try database.sync.settings()))
            }
        }
    }

    struct Folder: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "dir", abstract: "Sync through FOLDER (one that Syncthing or the like keeps the same on each computer); 'off' stops.")
        @OptionGroup var library: LibraryOptions
        @Argument(help: ArgumentHelp("The folder, or 'off'.", valueName: "FOLDER"), completion: .directory) var folder: String

        func run() throws {
            // A running player keeps the folder it read (it would say "not syncing"): the change
            // must go through it, with the folder as this command resolves it.
            let named = folder == "off" ? folder : URL(fileURLWithPath: folder).standardizedFileURL.path
            let database = try library.openForEditing(remote: "sync dir \(Tokenizer.quoted(named))")
            try reportingLibraryErrors(database) {
                if folder == "off" {
                    try database.sync.setFolder(nil)
                    print("not syncing")
                    return
                }
                try database.sync.setFolder(named)
                let settings = try database.sync.settings()
                print(TerminalText.visible(SyncText.folderLine(settings)))
            }
        }
    }

    struct Now: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write this library's changes to its journal and take the other computers' (for a cron job, or before you leave).")
        @OptionGroup var library: LibraryOptions

        func run() throws {
            let database = try library.open()
            // The player would go on saving its own place over what an exchange writes here:
            // the player's own exchange (`remote sync now`) knows which book it has loaded.
            guard let lock = try library.lockForPlaying() else {
                printError("abplayer: sync now: a player is running on \(library.resolvedPath) and syncs by itself; 'abplayer remote sync now' asks it to now")
                throw ExitCode.failure
            }
            defer { lock.release() }
            try reportingLibraryErrors(database) {
                let settings = try syncingSettings(database)
                let report = try database.sync.exchange(folder: settings.folder!, device: settings.device,
                                                        deviceName: settings.deviceName, playing: nil, placesElsewhere: false)
                for problem in report.problems { printError("abplayer: sync: \(TerminalText.visible(problem))") }
                for line in SyncText.exchangeReport(report) { print(TerminalText.visible(line)) }
            }
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Where each book stands here and on the other computers.")
        @OptionGroup var library: LibraryOptions
        @Flag(help: "Every other computer's place under each book, not only the \(SyncText.devicesShown) that listened last.")
        var all = false

        func run() throws {
            let database = try library.open()
            try reportingLibraryErrors(database) {
                let settings = try syncingSettings(database)
                let shown = all ? nil : SyncText.devicesShown
                let (books, problems) = try database.sync.status(folder: settings.folder!, device: settings.device,
                                                                 deviceName: settings.deviceName, devicesPerBook: shown)
                for problem in problems { printError("abplayer: sync: \(TerminalText.visible(problem))") }
                let lines = SyncText.statusReport(settings, books, devicesPerBook: shown)
                for line in lines { print(TerminalText.visible(line)) }
            }
        }
    }
}

extension Sync {
    /// What the other computers call this one: the host's name until it is given one.
    struct Name: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "What the other computers call this one (its host name at first); NAME renames it.")
        @OptionGroup var library: LibraryOptions
        @Argument(help: ArgumentHelp("The new name (several words make one name).", valueName: "NAME")) var words: [String] = []

        func run() throws {
            guard !words.isEmpty else {
                let database = try library.open()
                try reportingLibraryErrors(database) { print(TerminalText.visible(SyncText.nameLine(try database.sync.settings()))) }
                return
            }
            let name = words.joined(separator: " ")
            // A running player keeps the name it read: the change must go through it.
            let database = try library.openForEditing(remote: "sync name \(Tokenizer.quoted(name))")
            try reportingLibraryErrors(database) {
                let settings = try database.sync.setDeviceName(name)
                // Said in the journal now, so the other computers show it at their next exchange;
                // when the folder is away, this library's next exchange says it instead.
                if let folder = settings.folder {
                    _ = try? database.sync.writeJournal(folder: folder, device: settings.device, deviceName: settings.deviceName)
                }
                print(TerminalText.visible(SyncText.nameLine(settings)))
            }
        }
    }

    /// The one way a link (or a pipe, a device) under this computer's journal name goes away:
    /// syncing refuses to write through it, and never removes it by itself, since what put it
    /// there is worth a look first.
    struct Repair: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replace what is not a file under this computer's journal name in the sync folder (a link, a pipe), so syncing can write it again.")
        @OptionGroup var library: LibraryOptions

        func run() throws {
            let database = try library.open()
            try reportingLibraryErrors(database) {
                let settings = try syncingSettings(database)
                let path = SyncJournalFormat.path(of: settings.device, in: settings.folder!)
                let shown = TerminalText.visible(path)
                do {
                    switch try SyncJournalFormat.repairJournal(of: settings.device, in: settings.folder!) {
                    case .nothingThere: print("\(shown): no journal yet; the next exchange writes one")
                    case .alreadyAFile: print("\(shown): a journal file; nothing to repair")
                    case let .removed(kind, target):
                        let pointed = target.map { " (it pointed to \(TerminalText.visible($0)))" } ?? ""
                        print("\(shown): removed \(kind.rawValue)\(pointed); the next exchange writes a new journal there")
                    }
                } catch let error as SyncJournalWriteError {
                    printError("abplayer: sync repair: \(TerminalText.visible(error.description))")
                    throw ExitCode.failure
                }
            }
        }
    }
}

/// The sync settings of a library that syncs; otherwise one line saying how to start.
private func syncingSettings(_ database: LibraryDatabase) throws -> SyncSettings {
    let settings = try database.sync.settings()
    guard settings.folder != nil else {
        printError("abplayer: sync: no sync folder set; 'abplayer sync dir FOLDER' names one that Syncthing (or the like) keeps the same on each computer")
        throw ExitCode.failure
    }
    return settings
}
