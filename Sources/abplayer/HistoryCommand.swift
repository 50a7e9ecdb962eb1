import ArgumentParser
import Foundation
import Library

struct History: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Listening sessions, newest first (of one book, or all).")
    @OptionGroup var library: LibraryOptions
    @Option(help: "How many.") var limit = 20
    @Flag(help: "One JSON object per session, one per line.") var json = false
    @Argument var book: String?

    func run() throws {
        let database = try library.open()
        try reportingLibraryErrors {
            let bookId = try book.map { try database.book(matching: $0).id! }
            let titles = Dictionary(uniqueKeysWithValues: try database.bookListings().map { ($0.id, $0.title) })
            let formatter = ISO8601DateFormatter()
            for session in try database.sessions(ofBook: bookId, limit: limit) {
                if json { print(JSONEncoder.forScripts.line(session)); continue }
                print("\(formatter.string(from: session.startedAt))  \(formatDuration(session.wallSeconds))  x\(session.speed)  \(titles[session.bookId] ?? "?")")
            }
        }
    }
}

struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Time listened per day and per book; play counts of a book's items.")
    @OptionGroup var library: LibraryOptions
    @Option(help: "Days back for the per-day figures.") var days = 14
    @Argument(help: "A book: show its items' play counts.") var book: String?

    func run() throws {
        let database = try library.open()
        try reportingLibraryErrors {
            if let book {
                let id = try database.book(matching: book).id!
                for plays in try database.itemPlays(ofBook: id) { print("\(plays.playCount)×  \(plays.title)") }
                return
            }
            print("per day:")
            for day in try database.listeningPerDay(days: days) { print("  \(day.day)  \(formatDuration(day.wallSeconds))") }
            print("per book:")
            for book in try database.listeningPerBook() {
                print("  \(formatDuration(book.wallSeconds))  \(book.sessions) sessions  \(book.title)")
            }
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
        let database = try library.open()
        let report = try reportingLibraryErrors { try database.rescan(searchRoots: folders) }
        for (from, to) in report.moved { print("moved: \(from) -> \(to)") }
        for path in report.returned { print("back: \(path)") }
        for path in report.missing { printError("abplayer: missing: \(path)") }
        print("\(report.moved.count) moved, \(report.returned.count) back, \(report.missing.count) missing")
    }
}

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write positions, bookmarks and settings as JSON (books identified by file fingerprints).")
    @OptionGroup var library: LibraryOptions
    @Argument(help: "The JSON file ('-' for standard output).") var file: String

    func run() throws {
        let database = try library.open()
        let data = try StateExport.encoder.encode(try reportingLibraryErrors { try database.exportState() })
        if file == "-" {
            FileHandle.standardOutput.write(data + Data("\n".utf8))
        } else {
            try data.write(to: URL(fileURLWithPath: file), options: .atomic)
        }
    }
}

struct ImportState: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-state", abstract: "Read positions, bookmarks and settings written by `export`; books are matched by fingerprint.")
    @OptionGroup var library: LibraryOptions
    @Argument(completion: .file()) var file: String

    func run() throws {
        let database = try library.open()
        let state: StateExport
        do {
            state = try StateExport.decoder.decode(StateExport.self, from: Data(contentsOf: URL(fileURLWithPath: file)))
        } catch {
            printError("abplayer: \(file): not a readable abplayer state file (\(error.localizedDescription))")
            throw ExitCode.failure
        }
        let report = try reportingLibraryErrors { try database.importState(state) }
        for title in report.unmatched { printError("abplayer: no book in the library matches '\(title)'") }
        print("\(report.matched.count) books restored, \(report.unmatched.count) not found")
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
        let database = try library.open()
        try reportingLibraryErrors {
            if let by, value == nil {
                for entry in try database.browse(by, search: search) { print("\(entry.value)  (\(entry.mediaCount))") }
                return
            }
            let media = try database.media(where: by, equals: value, search: search)
            for item in media { print("\(item.displayTitle)  \(formatDuration(item.durationSeconds))  \(item.path)") }
            if let addTo {
                let book = try database.book(matching: addTo)
                let before = try database.items(ofBook: book.id!).count
                try database.addItems(toBook: book.id!, mediaIds: media.map { $0.id! })
                print("added \(try database.items(ofBook: book.id!).count - before) items to #\(book.id!) \(book.title)")
            }
        }
    }
}
