import ArgumentParser
import Library
import Console

struct ShelfCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shelf", abstract: "Create, rename, move and delete shelves (paths like Fiction/Russian).",
        subcommands: [New.self, Rename.self, Move.self, Remove.self])

    struct New: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a shelf (its parent must exist).")
        @OptionGroup var library: LibraryOptions
        @Argument(help: "The new shelf's path.") var path: String

        func run() throws {
            let database = try library.openForEditing()
            try reportingLibraryErrors(database) { _ = try database.shelves.createShelf(path: path) }
        }
    }

    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rename a shelf.")
        @OptionGroup var library: LibraryOptions
        @Argument(help: "The shelf's path.") var path: String
        @Argument(help: "Its new name.") var name: String

        func run() throws {
            let database = try library.openForEditing()
            try reportingLibraryErrors(database) { try database.shelves.renameShelf(path: path, to: name) }
        }
    }

    struct Move: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "mv", abstract: "Move a shelf under another (or to the top without PARENT).")
        @OptionGroup var library: LibraryOptions
        @Argument(help: "The shelf's path.") var path: String
        @Argument(help: "The new parent shelf.") var parent: String?

        func run() throws {
            let database = try library.openForEditing()
            try reportingLibraryErrors(database) { try database.shelves.moveShelf(path: path, under: parent) }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete a shelf; with --force also what it holds.")
        @OptionGroup var library: LibraryOptions
        @Flag(help: "Delete the shelves and books inside too.") var force = false
        @Argument(help: "The shelf's path.") var path: String

        func run() throws {
            let database = try library.openForEditing()
            let removed = try reportingLibraryErrors(database) { try database.shelves.deleteShelf(path: path, force: force) }
            if force { print("deleted \(LibraryText.counted(removed.shelves, "shelf", plural: "shelves")) and \(LibraryText.counted(removed.books, "book")) (their media stay in the library)") }
        }
    }
}
