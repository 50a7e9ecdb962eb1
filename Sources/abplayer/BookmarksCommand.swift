import ArgumentParser
import Console
import Foundation
import Library
import Player

struct Bookmarks: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List, add, delete, export and import a book's bookmarks.",
        subcommands: [List.self, Add.self, Remove.self, Export.self, Import.self], defaultSubcommand: List.self)

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "A book's bookmarks in the book's order: number, time in the book, chapter (or item), kind, note.",
            discussion: "The numbers are the ones the player's 'jump N', 'bookmark note N' and 'bookmark rm N' take, the same on every computer that syncs the book; automatic bookmarks (--all) are numbered a1, a2...")
        @OptionGroup var library: LibraryOptions
        @Flag(help: "Also the automatic ones (before seeks, skips, jumps; sleep timer).") var all = false
        @Flag(help: "One JSON object per bookmark, one per line: its number, and its library id (stable while numbers move).") var json = false
        @Argument var book: String

        func run() throws {
            let database = try library.open()
            try reportingLibraryErrors(database) {
                let id = try database.books.book(matching: book).id!
                if json {
                    for numbered in try database.bookmarks.numbered(ofBook: id) where all || !numbered.number.isAutomatic {
                        print(JSONEncoder.forScripts.line(ListedBookmark(numbered)))
                    }
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
                // Said as the player says a bookmark made: its number in the list, its time.
                if let place = try BookmarkPlace.places(ofBook: id, in: database, all: false).first(where: { $0.id == bookmark.id }) {
                    print(TerminalText.visible("bookmark \(place.number) at \(place.time)\(place.note.map { ": \($0)" } ?? "")"))
                }
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm", abstract: "Delete a book's bookmark by its number, as 'bookmarks BOOK' lists it (aN: an automatic one, as --all lists it).")
        @OptionGroup var library: LibraryOptions
        @Argument var book: String
        @Argument(help: ArgumentHelp("The bookmark's number.", valueName: "N")) var numberText: String

        func run() throws {
            guard let number = BookmarkNumber(numberText) else {
                try refuse(option: "bookmarks rm", "'\(numberText)' is not a bookmark number: use N as 'abplayer bookmarks BOOK' lists them (aN as --all does)")
                return
            }
            let database = try library.openForEditing()
            try reportingLibraryErrors(database) {
                let found = try database.books.book(matching: book)
                guard let place = try BookmarkPlace.places(ofBook: found.id!, in: database, all: number.isAutomatic)
                    .first(where: { $0.number == number }) else {
                    throw LibraryError.notFound("no bookmark \(number) in \(found.title): "
                        + "'abplayer bookmarks\(number.isAutomatic ? " --all" : "") \(book)' lists its bookmarks")
                }
                try database.bookmarks.delete(id: place.id)
                print("removed bookmark \(number) at \(place.time)")
            }
        }
    }

    /// A line of `bookmarks --json`: the bookmark's number in the list, then its record.
    struct ListedBookmark: Encodable {
        let numbered: NumberedBookmark
        init(_ numbered: NumberedBookmark) { self.numbered = numbered }

        enum Keys: String, CodingKey { case number }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(numbered.number, forKey: .number)
            try numbered.bookmark.encode(to: encoder)
        }
    }
}
