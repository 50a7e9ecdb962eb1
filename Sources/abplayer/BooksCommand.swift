import PlayerCore
import ArgumentParser
import Console
import Foundation
import Library
import Player

struct Books: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the books: shelf, title, author, narrator, duration, progress, items in play order.")

    @OptionGroup var library: LibraryOptions

    @Option(help: ArgumentHelp("Only books on this shelf and below.", valueName: "PATH"))
    var shelf: String?

    @Option(help: ArgumentHelp("A smart shelf instead: \(SmartShelf.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "NAME"),
            transform: enumArgument)
    var smart: SmartShelf?

    @Flag(help: "One JSON object per book, one per line.")
    var json = false

    @Flag(help: "Leave out the items.")
    var brief = false

    func run() throws {
        let database = try library.open()
        let listings = try reportingLibraryErrors(database) {
            if let smart {
                return try database.catalog.books(on: smart).map { try database.catalog.bookListing(id: $0.id!) }
            }
            return try database.catalog.bookListings(shelf: shelf)
        }
        let encoder = JSONEncoder.forScripts
        let elsewhere = placesElsewhere(database)
        for book in listings {
            if json {
                print(encoder.line(BookJSON(listing: book, elsewhere: (elsewhere[book.id] ?? []).map(Status.Elsewhere.init))))
                continue
            }
            let progress = book.finished ? "finished" : book.positionSeconds == nil ? "not started"
                : "\(Int(saturating: (book.progress * 100).rounded()))% (at \(formatDuration(book.positionSeconds)))"
            var line = "#\(book.id) "
            if let shelf = book.shelf { line += "[\(shelf)] " }
            line += book.title
            if let author = book.author { line += " — \(author)" }
            if let narrator = book.narrator { line += ", read by \(narrator)" }
            if let series = book.series {
                // "#2", "#2.5": a whole number without its ".0".
                let number = book.seriesNumber.map { $0 == $0.rounded() ? " #\(Int($0))" : " #\($0)" } ?? ""
                line += " (\(series)\(number))"
            }
            print(TerminalText.visible(line) + "  \(formatDuration(book.durationSeconds)), \(progress)")
            if let places = elsewhere[book.id], !places.isEmpty {
                print(TerminalText.visible("    elsewhere: " + places.map { SyncText.placeText($0) }.joined(separator: ", ")))
            }
            guard !brief else { continue }
            for (index, item) in book.items.enumerated() {
                print("    " + LibraryText.itemLine(number: index + 1, item))
            }
        }
    }
}

/// A book as `books --json` prints it: its listing, and where the other devices syncing with this
/// library are in it (as `status --json` says it for the book loaded), when any is.
private struct BookJSON: Encodable {
    let listing: BookListing
    let elsewhere: [Status.Elsewhere]

    private enum CodingKeys: String, CodingKey { case elsewhere }

    func encode(to encoder: any Encoder) throws {
        try listing.encode(to: encoder)
        guard !elsewhere.isEmpty else { return }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(elsewhere, forKey: .elsewhere)
    }
}

/// Where the other devices syncing with this library are in each book, by book id; none when
/// the library does not sync (a sync folder that went missing is `sync status`'s to say).
private func placesElsewhere(_ database: LibraryDatabase) -> [Int64: [SyncBookStatus.Place]] {
    guard let settings = try? database.sync.settings(), let folder = settings.folder,
          let (books, _) = try? database.sync.status(folder: folder, device: settings.device, deviceName: settings.deviceName) else { return [:] }
    return Dictionary(books.map { ($0.bookId, $0.elsewhere) }, uniquingKeysWith: { a, _ in a })
}

/// Parses one of an enum's raw values, listing them all when the text is none of them.
/// (A conformance of the Library's public enums to ExpressibleByArgument would be a public
/// conformance, which our internal imports of ArgumentParser do not allow.)
func enumArgument<T: RawRepresentable & CaseIterable>(_ text: String) throws -> T where T.RawValue == String {
    guard let value = T(rawValue: text) else {
        throw ValidationError("'\(text)' is not one of: \(T.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    return value
}

struct Shelves: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show the shelf tree with the books and files on each shelf.")

    @OptionGroup var library: LibraryOptions

    @Flag(help: "One JSON object per shelf, one per line.")
    var json = false

    func run() throws {
        let database = try library.open()
        let tree = try reportingLibraryErrors(database) { try database.shelves.shelfTree() }
        if json {
            let encoder = JSONEncoder.forScripts
            for shelf in tree { print(encoder.line(shelf)) }
            return
        }
        let books = try reportingLibraryErrors(database) { try database.catalog.bookListings() }
        for line in LibraryText.treeLines(tree, books: books, files: true) { print(line) }
    }
}
