import ArgumentParser
import Console
import Foundation
import Library
import Listening

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Import audiobooks: the files of a folder that share an album tag are a book (other albums there are books of their own; untagged files join the folder's only album), CD1/Disc 2 sub-folders are its discs, an M4B (or a long file with chapters) is a book by itself, a folder of folders is many books.",
        discussion: """
            A single-file book (M4B/M4A/MP4 with chapters or over 20 minutes; a long MP3 or Opus with \
            chapters) is a book of its own wherever it lies; the other files of a folder are one book per \
            album tag. Sidecars beside the audio are read: cover.jpg/folder.jpg, desc.txt, reader.txt, \
            Audiobookshelf's metadata.json, .cue sheets and NAME.chapters.txt. With --layout author-series \
            the folder imported is read as Audiobookshelf lays a library out (Author/Title, \
            Author/Series/Vol 2 - Title, "(1987) Title {Narrator}"): authors and series become shelves.
            """)

    @OptionGroup var library: LibraryOptions
    @OptionGroup var plugins: PluginOptions

    @Option(help: ArgumentHelp("Put the new books on this shelf (A/B/C, created if missing).", valueName: "PATH"))
    var shelf: String?

    @Option(help: ArgumentHelp("How the folders above the books are read: folders (they mean nothing) or author-series (Audiobookshelf's Author/Series/Title: authors and series become shelves).", valueName: "LAYOUT"), transform: enumArgument)
    var layout: ImportLayout = .folders

    @Argument(help: "Files and folders.", completion: .file())
    var paths: [String]

    func run() throws {
        let database = try library.openForEditing()
        let importer = Importer(library: database, inspector: DecoderInspector(decoders: try plugins.makeRegistry()))
        let bar = ProgressBar(label: "importing", plain: library.plain)
        let report = try reportingLibraryErrors(database) {
            // The bar's line is ended before an error's line, which must stand alone.
            defer { bar.finish() }
            return try importer.importPaths(paths, shelf: shelf, layout: layout) { bar.update(done: $0.done, total: $0.total) }
        }
        let lines = LibraryText.importLines(report)
        for line in lines.books { print(line) }
        for line in lines.skipped { printError("abplayer: \(line)") }
        for line in lines.warnings { printError("abplayer: \(line)") }
        print(lines.summary)
        // The exit code says whether every file was imported (docs/guide.md's promise): a script
        // importing 2,000 files must learn that 200 were skipped.
        if !report.skipped.isEmpty { throw ExitCode.failure }
    }
}
