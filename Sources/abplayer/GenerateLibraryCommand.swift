import ArgumentParser
import Library

/// A hidden command for the benchmark: fills a library with made-up books.
struct GenerateLibrary: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "debug-generate-library", abstract: "Fill a library with synthetic books (for benchmarks).",
        shouldDisplay: false)

    @OptionGroup var library: LibraryOptions
    @Option var books = 10_000
    @Option var items = 20

    func run() throws {
        let database = try library.openForEditing()
        try reportingLibraryErrors(database) { try database.books.insertSyntheticBooks(books: books, itemsPerBook: items) }
    }
}
