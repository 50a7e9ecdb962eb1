import ArgumentParser
import Foundation
import Library
import Listening

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Import audiobooks: a folder is a book (CD1/Disc 2 sub-folders are its discs), a folder of folders is many books, a file is a single-file book.")

    @OptionGroup var library: LibraryOptions
    @OptionGroup var plugins: PluginOptions

    @Option(help: ArgumentHelp("Put the new books on this shelf (A/B/C, created if missing).", valueName: "PATH"))
    var shelf: String?

    @Argument(help: "Files and folders.", completion: .file())
    var paths: [String]

    func run() throws {
        let database = try library.open()
        let importer = Importer(library: database, inspector: DecoderInspector(decoders: plugins.makeRegistry()))
        let bar = ProgressBar(label: "importing")
        let report = try reportingLibraryErrors {
            try importer.importPaths(paths, shelf: shelf) { bar.update(done: $0.done, total: $0.total) }
        }
        bar.finish()
        for book in report.books {
            let what = book.existed ? "already in the library" + (book.newFiles > 0 ? ", \(book.newFiles) new files added" : "") : "\(book.newFiles) files"
            print("#\(book.id) \(book.title) (\(what))")
        }
        for (path, reason) in report.skipped { printError("abplayer: skipped \(path): \(reason)") }
        let newBooks = report.books.filter { !$0.existed }.count
        print("\(newBooks) new books, \(report.filesImported) files imported, \(report.filesAlreadyPresent) already present, \(report.skipped.count) skipped")
        if report.books.isEmpty && !report.skipped.isEmpty { throw ExitCode.failure }
    }
}

/// A one-line progress bar on standard error, drawn only when it is a terminal: files done of
/// the total, the rate and the time left.
final class ProgressBar {
    private let label: String
    private let isTerminal = isatty(2) == 1
    private let clock = ContinuousClock()
    private let started: ContinuousClock.Instant
    private var drawn = false

    init(label: String) {
        self.label = label
        started = clock.now
    }

    func update(done: Int, total: Int) {
        guard isTerminal, total > 0 else { return }
        let elapsed = clock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let rate = seconds > 0 ? Double(done) / seconds : 0
        let eta = rate > 0 ? formatDuration(Double(total - done) / rate) : "?"
        let width = 30
        let filled = width * done / total
        let bar = String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled)
        let line = String(format: "\r%@ [%@] %d/%d files  %.0f files/s  ETA %@ ", label, bar, done, total, rate, eta)
        FileHandle.standardError.write(Data(line.utf8))
        drawn = true
    }

    func finish() {
        if drawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
