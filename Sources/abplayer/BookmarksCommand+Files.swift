import ArgumentParser
import Console
import Foundation
import Library
import Player
import StandardStreams

extension Bookmarks {
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a book's bookmarks to FILE as CSV, JSON, an Audacity label track or a chapters.txt ('-': standard output).",
            discussion: """
                Each bookmark is written with its time in the book, and (CSV, JSON) its file and time in the file. \
                Audacity's labels are in the book's time, the files joined end to end. Audacity labels and chapters.txt \
                cannot hold a tab or a line break: a note's become spaces.
                """)
        @OptionGroup var library: LibraryOptions
        @Option(help: ArgumentHelp("csv, json, audacity or chapters (default: from FILE's name).", valueName: "FORMAT"),
                transform: enumArgument) var format: BookmarkFileFormat?
        @Flag(help: "Also the automatic bookmarks.") var all = false
        @Argument var book: String
        @Argument(help: ArgumentHelp("Where to write ('-': standard output).", valueName: "FILE")) var file: String

        func run() throws {
            guard let format = format ?? BookmarkFileFormat(fileName: file) else {
                try refuse(option: "bookmarks export", "'\(file)' does not say its format: add --format \(BookmarkFileFormat.names)")
                return
            }
            let database = try library.open()
            try reportingLibraryErrors(database) {
                let found = try database.books.book(matching: book)
                let entries = try BookmarkTransfer.entries(ofBook: found.id!, in: database, all: all)
                let text = BookmarkFile.text(entries, as: format)
                if file == "-" {
                    // Notes are the listener's text, control characters and all: kept exactly for a
                    // pipe or a file, made visible on a terminal (CSV's CRLF there a plain line end).
                    let shown = isatty(STDOUT_FILENO) == 1 ? TerminalText.lines(text.replacingOccurrences(of: "\r\n", with: "\n")) : text
                    _ = StandardStream.output.write(shown)
                    return
                }
                try BookmarkFile.write(text, toFile: file, besides: database)
                print(LibraryText.exportedLine(entries, as: format, of: found.title, to: file))
            }
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make bookmarks of a book from FILE, as 'bookmarks export' writes them (or Audacity, or a chapters.txt).",
            discussion: """
                A bookmark is placed by its file and time in the file when the book has that file, else by its time in the book. \
                One already there (the same place, the same note) is passed over; a line that cannot be read is named, \
                and the others are imported.
                """)
        @OptionGroup var library: LibraryOptions
        @Option(help: ArgumentHelp("csv, json, audacity or chapters (default: from FILE's name or content).", valueName: "FORMAT"),
                transform: enumArgument) var format: BookmarkFileFormat?
        @Argument var book: String
        @Argument(help: ArgumentHelp("The file to read.", valueName: "FILE")) var file: String

        func run() throws {
            let database = try library.openForEditing()
            try reportingLibraryErrors(database) {
                let found = try database.books.book(matching: book)
                let read = try BookmarkFile.read(try BookmarkFile.contents(ofFile: file, besides: database), format: format, name: file)
                let imported = try BookmarkTransfer.importing(read, toBook: found.id!, in: database)
                for problem in imported.problems { printError("abplayer: \(file): \(problem)") }
                print(imported.summary)
                // As `abplayer import`'s: the exit code says whether every line was imported, for
                // a script that goes on only then.
                if !imported.problems.isEmpty { throw ExitCode.failure }
            }
        }
    }
}
