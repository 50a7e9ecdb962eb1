import ArgumentParser
import Console
import Foundation
import Library
import StandardStreams

struct History: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Listening sessions, newest first (of one book, or all).")
    @OptionGroup var library: LibraryOptions
    @Option(help: "How many.") var limit = LibraryText.historyLimit
    @Flag(help: "One JSON object per session, one per line.") var json = false
    @Argument var book: String?

    func run() throws {
        let database = try library.open()
        try reportingLibraryErrors(database) {
            let bookId = try book.map { try database.books.book(matching: $0).id! }
            if json {
                for session in try database.history.sessions(ofBook: bookId, limit: limit) { print(JSONEncoder.forScripts.line(session)) }
                return
            }
            for line in try LibraryText.historyLines(database, book: bookId, limit: limit) { print(line) }
        }
    }
}

struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Time listened per day and per book; play counts of a book's items.")
    @OptionGroup var library: LibraryOptions
    @Option(help: "Days back for the per-day figures.") var days = LibraryText.statsDays
    @Argument(help: "A book: show its items' play counts.") var book: String?

    func run() throws {
        let database = try library.open()
        try reportingLibraryErrors(database) {
            let id = try book.map { try database.books.book(matching: $0).id! }
            for line in try LibraryText.statsLines(database, book: id, days: days) { print(line) }
        }
    }
}

struct Rescan: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Find moved or renamed files by their content fingerprint (keeping positions, bookmarks, history); mark the rest missing.")
    @OptionGroup var library: LibraryOptions
    @Argument(help: "Folders to search (default: the nearest existing folder above each missing file).", completion: .directory)
    var folders: [String] = []

    func run() throws {
        let database = try library.openForEditing()
        let report = try reportingLibraryErrors(database) { try database.media.rescan(searchRoots: folders) }
        let lines = LibraryText.rescanLines(report)
        for line in lines.found { print(line) }
        for line in lines.missing { printError("abplayer: \(line)") }
        print(lines.summary)
    }
}

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write positions, bookmarks and settings as JSON (books identified by file fingerprints).")
    @OptionGroup var library: LibraryOptions
    @Argument(help: "The JSON file ('-' for standard output).") var file: String

    func run() throws {
        let database = try library.open()
        try reportingLibraryErrors(database) {
            if file == "-" {
                StandardStream.output.write(bytes: try StateExport.encoder.encode(try database.state.export()) + Data("\n".utf8))
            } else {
                try database.state.export(toFile: file)
            }
        }
    }
}

struct ImportState: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-state", abstract: "Read positions, bookmarks and settings written by `export`; books are matched by fingerprint.")
    @OptionGroup var library: LibraryOptions
    @Argument(completion: .file()) var file: String

    func run() throws {
        let database = try library.openForEditing()
        let report = try reportingLibraryErrors(database) { try database.state.apply(database.state.read(fromFile: file)) }
        let lines = LibraryText.stateImportLines(report)
        for line in lines.unmatched { printError("abplayer: \(line)") }
        print(lines.summary)
    }
}

struct Browse: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Browse the library's media by tag; list the media with a value; add them to a book.")
    @OptionGroup var library: LibraryOptions
    @Option(help: "artist, album, album-artist, composer, genre, narrator or year.", transform: enumArgument) var by: BrowseField?
    @Option(help: "Only values (or, with --value or alone, media) containing this text.") var search: String?
    @Option(help: "List the media whose --by field is this.") var value: String?
    @Option(name: .customLong("add-to"), help: ArgumentHelp("Append the listed media to this book.", valueName: "BOOK")) var addTo: String?

    func run() throws {
        let database = try addTo == nil ? library.open() : library.openForEditing()
        try reportingLibraryErrors(database) {
            if let by, value == nil {
                for entry in try database.catalog.browse(by, search: search) { print(LibraryText.browseLine(entry)) }
                return
            }
            let media = try database.catalog.media(where: by, equals: value, search: search)
            for item in media { print(LibraryText.mediaLine(item)) }
            if let addTo {
                let book = try database.books.book(matching: addTo)
                let before = try database.books.items(ofBook: book.id!).count
                try database.books.addItems(toBook: book.id!, mediaIds: media.map { $0.id! })
                print(TerminalText.visible("added \(try database.books.items(ofBook: book.id!).count - before) items to #\(book.id!) \(book.title)"))
            }
        }
    }
}
