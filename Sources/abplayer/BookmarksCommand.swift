import ArgumentParser
import Console
import Foundation
import Library
import Player

struct Bookmarks: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List, add and delete a book's bookmarks.",
        subcommands: [List.self, Add.self, Remove.self], defaultSubcommand: List.self)

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "A book's bookmarks, oldest first: #id, time in the book, chapter (or item), kind, note.")
        @OptionGroup var library: LibraryOptions
        @Flag(help: "Also the automatic ones (before seeks, skips, jumps; sleep timer).") var all = false
        @Flag(help: "One JSON object per bookmark, one per line.") var json = false
        @Argument var book: String

        func run() throws {
            let database = try library.open()
            try reportingLibraryErrors(database) {
                let id = try database.books.book(matching: book).id!
                if json {
                    for bookmark in try database.bookmarks.all(ofBook: id, includeAutomatic: all) { print(JSONEncoder.forScripts.line(bookmark)) }
                    return
                }
                // The REPL's lines: the same times (one rounding rule) and places in the book.
                for place in try BookmarkPlace.places(ofBook: id, in: database, all: all) { print(TerminalText.visible(place.line)) }
            }
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Bookmark a place in a book (default: the saved position).")
        @OptionGroup var library: LibraryOptions
        @Option(help: "Item number (1-based).") var item: Int?
        @Option(name: .customLong("at"), help: ArgumentHelp("Time in the item (\(TimeArgument.help)).", valueName: "T")) var atText: String?
        var at: Double? { get throws { try TimeArgument.seconds("--at", atText) } }
        @Option(help: "A note.") var note: String?
        @Argument var book: String

        func run() throws {
            let at = try self.at
            let database = try library.openForEditing()
            try reportingLibraryErrors(database) {
                let id = try database.books.book(matching: book).id!
                let items = try database.books.items(ofBook: id)
                let saved = try database.positions.ofBook(id)
                let index = item.map { $0 - 1 } ?? saved.flatMap { p in items.firstIndex { $0.id == p.mediaId } } ?? 0
                guard items.indices.contains(index) else { throw LibraryError.invalid("item numbers run from 1 to \(items.count)") }
                let frame = at.map { Int64($0 * Double(items[index].sampleRate)) }
                    ?? (saved?.mediaId == items[index].id ? saved!.frame : 0)
                let bookmark = try database.bookmarks.add(bookId: id, mediaId: items[index].id!, frame: frame, kind: .user, note: note)
                print("#\(bookmark.id!)")
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete a bookmark by its #id.")
        @OptionGroup var library: LibraryOptions
        @Argument var id: Int64

        func run() throws {
            let database = try library.openForEditing()
            try reportingLibraryErrors(database) { try database.bookmarks.delete(id: id) }
        }
    }
}
