import ArgumentParser
import Console
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
        let database = try library.openForEditing()
        let importer = Importer(library: database, inspector: DecoderInspector(decoders: try plugins.makeRegistry()))
        let bar = ProgressBar(label: "importing")
        let report = try reportingLibraryErrors(database) {
            // The bar's line is ended before an error's line, which must stand alone.
            defer { bar.finish() }
            return try importer.importPaths(paths, shelf: shelf) { bar.update(done: $0.done, total: $0.total) }
        }
        let lines = LibraryText.importLines(report)
        for line in lines.books { print(line) }
        for line in lines.skipped { printError("abplayer: \(line)") }
        print(lines.summary)
        // The exit code says whether every file was imported (the README's promise): a script
        // importing 2,000 files must learn that 200 were skipped.
        if !report.skipped.isEmpty { throw ExitCode.failure }
    }
}
