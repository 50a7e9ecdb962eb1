import Foundation
import Library
import Listening
import Player
import PlayerCore

/// The library's side of the command grammar: where the shelves are (`ls`, `cd`, `tree`, `find`,
/// `LibraryCommands+Shelves.swift`), the edits of shelves and books and imports
/// (`LibraryCommands+Books.swift`), rescans, exports and the library's reports; and which book
/// or shelf a name given on a line means, from the shelf that line works in. The command runner
/// owns it and hands it the library commands; it knows nothing of playback but what a library
/// edit means for the book loaded. The lines it prints come from `LibraryText`, shared with the
/// `abplayer` subcommands of the same names.
///
/// An edit that may touch the book loaded (its items added, reordered or removed, the book or its
/// shelf deleted, a state imported) goes through `PlayerController.edit`: what it means for the
/// book playing (taken while it plays, or stopped and loaded again) is the player's to decide.
/// Every edit is told to the player's observers (`PlayerController.libraryEdited`: `subscribe`'s
/// `library` event), so that a library screen attached elsewhere reads the library again.
final class LibraryCommands {
    let library: LibraryDatabase
    /// For the importer and `book add` (what each file holds); playback goes through `player`.
    let decoders: any DecoderOpener
    /// The player, where an edit touches the book loaded, and for the places other devices report.
    let player: PlayerController
    /// Where what these commands say goes: the face's output, or a socket client's reply.
    let lines: LineOutput
    /// The terminal's shelf (shared with the line editor for the prompt and completion).
    let terminalShelf: ShelfLocation
    /// The shelf the line being run works in: the terminal's, or a socket client's.
    var here: ShelfLocation
    /// For what follows an import on the service's task (the new books' folders watched).
    let inputs: AsyncStream<ConsoleInput>.Continuation
    /// Shows what a player command did, as the runner shows every one (`bookmarks BOOK` is the
    /// player's to list).
    let show: (PlayerOutcome) -> Void
    /// Whether the terminal is in plain mode (no progress bar drawn).
    let isPlain: () -> Bool

    init(library: LibraryDatabase, decoders: any DecoderOpener, player: PlayerController, lines: LineOutput,
         terminalShelf: ShelfLocation, inputs: AsyncStream<ConsoleInput>.Continuation, show: @escaping (PlayerOutcome) -> Void,
         isPlain: @escaping () -> Bool) {
        self.library = library
        self.decoders = decoders
        self.player = player
        self.lines = lines
        self.terminalShelf = terminalShelf
        here = terminalShelf
        self.inputs = inputs
        self.show = show
        self.isPlain = isPlain
    }

    func run(_ command: LibraryCommand) throws {
        // Told even when it failed part way: an import with files skipped imported the rest.
        defer { if command.editsLibrary { player.libraryEdited() } }
        switch command {
        case let .shelf(action): try shelf(action)
        case let .book(action): try book(action)
        case let .importPaths(paths, shelf, layout): try importPaths(paths, shelf: shelf, layout: layout)
        case let .rescan(reference, folders):
            let only = try reference.map { Set(try library.books.items(ofBook: try resolveBook($0).id!).map { $0.id! }) }
            let lines = LibraryText.rescanLines(try library.media.rescan(searchRoots: folders.map(Self.expandingTilde), onlyMedia: only))
            lines.found.forEach(say)
            lines.missing.forEach(complain)
            say(lines.summary)
        case let .browse(field, value):
            if let value {
                let media = try library.catalog.media(where: field, equals: value)
                if media.isEmpty { throw CommandError("no file has \(field.rawValue) '\(value)': 'browse \(field.rawValue)' lists the values") }
                media.map(LibraryText.mediaLine).forEach(say)
            } else {
                let values = try library.catalog.browse(field)
                if values.isEmpty { say("no file has a \(field.rawValue) tag") }
                values.map(LibraryText.browseLine).forEach(say)
            }
        case let .bookmarks(reference, all):
            // Through the player: the same lines, times and chapters as the book loaded's.
            show(try player.perform(.bookmarks(bookId: try resolveBook(reference).id!, all: all)))
        case let .bookmarkFile(line): try bookmarkFile(line)
        case let .history(reference):
            let lines = try LibraryText.historyLines(library, book: try reference.map { try resolveBook($0).id! },
                                                     limit: LibraryText.historyLimit)
            if lines.isEmpty { say("no listening recorded yet") }
            lines.forEach(say)
        case let .stats(reference):
            try LibraryText.statsLines(library, book: try reference.map { try resolveBook($0).id! },
                                       days: LibraryText.statsDays).forEach(say)
        case let .export(path):
            let file = Self.expandingTilde(path)
            let state = try library.state.export(toFile: file)
            say("exported \(LibraryText.counted(state.books.count, "book")) to \(file)")
        case let .importState(path):
            let state = try library.state.read(fromFile: Self.expandingTilde(path))
            let lines = LibraryText.stateImportLines(try player.edit(.stateImported) { try library.state.apply(state) })
            lines.unmatched.forEach(complain)
            say(lines.summary)
        }
    }

    // MARK: Names

    /// The book `reference` names (#id, or its title or a unique part of it), looking first
    /// among the books on the current shelf and below, then in the whole library.
    func resolveBook(_ reference: String) throws -> Book {
        let current = here.current
        if !current.isEmpty, Int64(reference.hasPrefix("#") ? String(reference.dropFirst()) : reference) == nil {
            let lowered = reference.lowercased()
            let near = try library.catalog.bookListings(shelf: current)
            let exact = near.filter { $0.title.lowercased() == lowered }
            let partial = near.filter { $0.title.lowercased().contains(lowered) }
            if let only = exact.count == 1 ? exact.first : partial.count == 1 ? partial.first : nil {
                return try library.books.book(matching: "#\(only.id)")
            }
        }
        return try library.books.book(matching: reference)
    }

    /// The shelf path `argument` names from the current shelf, like `cd`: "A/B", "../C", "/D";
    /// "" for the top.
    func absoluteShelfPath(_ argument: String) -> String {
        let current = here.current
        let absolute = argument.hasPrefix("/") ? argument : current + "/" + argument
        var names: [String] = []
        for name in ShelfStore.shelfNames(absolute) {
            switch name {
            case ".": continue
            case "..": _ = names.popLast()
            default: names.append(name)
            }
        }
        return names.joined(separator: "/")
    }

    /// "~/x" and "~" as the shell would read them (the tokenizer does not).
    static func expandingTilde(_ path: String) -> String {
        (path as NSString).expandingTildeInPath
    }

    // MARK: Output

    func say(_ text: String) { lines.say(text) }

    func complain(_ text: String) { lines.complain(text) }
}

extension LibraryCommand {
    /// Whether running it may change the library's books, shelves or places (the reports,
    /// `browse`, `book items` and `export` only read it).
    var editsLibrary: Bool {
        switch self {
        case .shelf, .importPaths, .rescan, .importState: true
        case let .bookmarkFile(line): if case .importing = line.direction { true } else { false }
        case let .book(action): if case .items = action { false } else { true }
        case .browse, .bookmarks, .history, .stats, .export: false
        }
    }
}
