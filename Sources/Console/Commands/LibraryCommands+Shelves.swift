import Foundation
import Library
import PlayerCore
import Player

/// Where the shelves are and what is on them (`ls`, `cd`, `tree`, `find`, the plain library
/// list), and the edits of shelves (`shelf new|rename|mv|rm`), which keep the shelves the
/// terminal and the line being run are in.
extension LibraryCommands {
    /// The shelves directly inside `path` ("" for the top), by name.
    func childShelves(of path: String) throws -> [String] {
        let prefix = path.isEmpty ? "" : path + "/"
        return try library.shelves.shelfTree()
            .filter { $0.path.hasPrefix(prefix) && !$0.path.dropFirst(prefix.count).contains("/") && $0.path != path }
            .map { String($0.path.dropFirst(prefix.count)) }
    }

    func list() throws {
        let current = here.current
        let shelves = try childShelves(of: current)
        for shelf in shelves { say(TerminalText.visible("\(shelf)/")) }
        let books = try library.catalog.bookListings(directlyOn: current)
        for book in books { say(Self.line(for: book) + elsewhere(book.id)) }
        // An empty library is a dead end for someone new: say what fills it. (An empty shelf
        // stays an empty answer: scripts read `ls`.)
        if try current.isEmpty && shelves.isEmpty && books.isEmpty && library.books.hasNoBooks {
            say("(the library is empty: 'import FOLDER' adds the books in a folder)")
        }
    }

    /// "  · laptop 3:12:40 (yesterday 22:10)": the device that listened to the book last, when
    /// it is another one syncing with this library (as the player's last exchange found).
    func elsewhere(_ bookId: Int64) -> String {
        guard let newest = player.placesElsewhere(ofBook: bookId).first else { return "" }
        return TerminalText.visible("  · " + SyncText.placeText(newest))
    }

    func changeShelf(_ argument: String) throws {
        let current = here.current
        let target: String
        switch argument {
        case "/": target = ""
        case "..": target = ShelfStore.shelfNames(current).dropLast().joined(separator: "/")
        default: target = absoluteShelfPath(argument)
        }
        if !target.isEmpty, try library.shelves.shelfID(path: target) == nil {
            throw CommandError("no shelf '\(argument)' in /\(current): 'ls' shows the shelves here")
        }
        here.current = target
    }

    /// The shelves and the books on each, the top level's books first.
    func tree() throws {
        let lines = LibraryText.treeLines(try library.shelves.shelfTree(), books: try library.catalog.bookListings())
        if lines.isEmpty { say("(the library is empty: 'import FOLDER' adds books)") }
        lines.forEach { say($0) }
    }

    func find(_ text: String) throws {
        let found = try library.catalog.bookListings(containing: text)
        if found.isEmpty { throw CommandError("no book's title, author or narrator contains '\(text)'") }
        for book in found { say(TerminalText.visible("/\(book.shelf ?? "")  ") + Self.line(for: book) + elsewhere(book.id)) }
    }

    /// The library as the browser would list it, one book a line (`library` where no screen shows).
    func listAsTheBrowser() throws {
        let catalog = try library.catalog.snapshot()
        let browser = LibraryBrowser(shelves: catalog.shelves, books: catalog.books, returnsToPlayer: false)
        if browser.books.isEmpty { say("(the library is empty: 'import FOLDER' adds the books in a folder)") }
        let paths = Dictionary(uniqueKeysWithValues: browser.shelves.map { ($0.id, $0.path) })
        let lengths = try library.catalog.bookLengths(of: nil)
        for index in browser.listed {
            let book = browser.books[index]
            say(Self.plainLine(for: book, length: lengths[book.id] ?? 0, shelfPaths: paths))
        }
        say("(the library screen needs a terminal that can move the cursor; 'ls', 'tree' and 'find' work line by line)")
    }

    /// The library as the browser would list it, numbered from 1 for the next line to pick one
    /// (`library` in plain mode); the books' ids in that order.
    func listNumbered() throws -> [Int64] {
        let catalog = try library.catalog.snapshot()
        let browser = LibraryBrowser(shelves: catalog.shelves, books: catalog.books, returnsToPlayer: false)
        guard !browser.books.isEmpty else {
            say("(the library is empty: 'import FOLDER' adds the books in a folder)")
            return []
        }
        let paths = Dictionary(uniqueKeysWithValues: browser.shelves.map { ($0.id, $0.path) })
        let lengths = try library.catalog.bookLengths(of: nil)
        let books = browser.listed.map { browser.books[$0] }
        for (number, book) in zip(1..., books) {
            say("\(number). " + Self.plainLine(for: book, length: lengths[book.id] ?? 0, shelfPaths: paths))
        }
        say("type a book's number to play it; Enter goes back")
        return books.map(\.id)
    }

    // MARK: Shelf edits

    func shelf(_ action: LibraryCommand.ShelfAction) throws {
        switch action {
        case let .create(path):
            let target = absoluteShelfPath(path)
            _ = try library.shelves.createShelf(path: target)
            say("created /\(target)")
        case let .rename(path, name):
            let target = absoluteShelfPath(path)
            try library.shelves.renameShelf(path: target, to: name)
            let parent = ShelfStore.shelfNames(target).dropLast()
            follow(target, to: (parent + [name]).joined(separator: "/"))
        case let .move(path, parent):
            let target = absoluteShelfPath(path)
            let under = parent.map(absoluteShelfPath).flatMap { $0.isEmpty ? nil : $0 }
            try library.shelves.moveShelf(path: target, under: under)
            follow(target, to: ([under].compactMap { $0 } + ShelfStore.shelfNames(target).suffix(1)).joined(separator: "/"))
        case let .remove(path, force):
            let target = absoluteShelfPath(path)
            let delete = { try self.library.shelves.deleteShelf(path: target, force: force) }
            let removed = force ? try player.edit(.shelfDeleted(path: target), delete) : try delete()
            if force { say("deleted \(LibraryText.counted(removed.shelves, "shelf", plural: "shelves")) and \(LibraryText.counted(removed.books, "book")) (their media stay in the library)") }
        }
        // The shelf we are in (or the terminal is in, for a socket client's line) may have been
        // renamed, moved or deleted.
        for view in shelfViews where !view.current.isEmpty {
            guard try library.shelves.shelfID(path: view.current) == nil else { continue }
            view.current = ""
            if view === here { say("now at /") }
        }
    }

    /// The shelf of the line being run and the terminal's, once each.
    private var shelfViews: [ShelfLocation] { here === terminalShelf ? [here] : [here, terminalShelf] }

    /// Keeps the current shelves when they, or a shelf above them, moved from `old` to `new`.
    func follow(_ old: String, to new: String) {
        for view in shelfViews {
            let current = view.current
            if current == old { view.current = new }
            if current.hasPrefix(old + "/") { view.current = new + current.dropFirst(old.count) }
        }
    }

    // MARK: Lines

    static func line(for book: BookListing) -> String {
        line(id: book.id, title: book.title, author: book.author, seconds: book.durationSeconds,
             progress: book.progress, finished: book.finished)
    }

    /// "#3 Title — Author  1:00:00  45%": a book as `ls`, `find` and the plain library list show it.
    static func line(id: Int64, title: String, author: String?, seconds: Double?, progress: Double, finished: Bool) -> String {
        let author = author.map { " — \($0)" } ?? ""
        let progress = finished ? "finished" : "\(Int(saturating: (progress * 100).rounded()))%"
        return TerminalText.visible("#\(id) \(title)\(author)  \(Timecode.format(seconds: seconds))  \(progress)")
    }

    /// "/Fiction  #3 Title — Author  1:00:00  45%", as `find` lists a book.
    static func plainLine(for book: BookSummary, length: Double, shelfPaths: [Int64: String]) -> String {
        let shelf = book.shelfId.flatMap { shelfPaths[$0] } ?? ""
        return TerminalText.visible("/\(shelf)  ") + line(id: book.id, title: book.title, author: book.author, seconds: length,
                                                            progress: book.progress, finished: book.finished)
    }
}
