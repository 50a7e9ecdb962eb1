import Foundation
import Library
import PlayerCore
import Player
import Synchronization

/// The shelf the REPL is in ("" at the top). Read by the line editor's thread for the prompt
/// and completion while the REPL's task changes it, hence the lock.
public final class ShelfLocation: Sendable {
    private let path = Mutex("")

    public init() {}

    public var current: String {
        get { path.withLock { $0 } }
        set { path.withLock { $0 = newValue } }
    }

    /// "/" or "/Fiction/Russian".
    public var display: String { "/" + current }
}

extension CommandRunner {
    func help(_ topic: String?) {
        if let topic, let entry = CommandHelp.named(topic) {
            say("\(entry.usage)\n  \(entry.summary)")
            return
        }
        let lines = CommandHelp.lines(CommandHelp.all, columns: isInteractive ? RawTerminal.size.columns : nil)
        lines.forEach(say)
    }

    /// The shelves directly inside `path` ("" for the top), by name.
    func childShelves(of path: String) throws -> [String] {
        let prefix = path.isEmpty ? "" : path + "/"
        return try library.shelfTree()
            .filter { $0.path.hasPrefix(prefix) && !$0.path.dropFirst(prefix.count).contains("/") && $0.path != path }
            .map { String($0.path.dropFirst(prefix.count)) }
    }

    func list() throws {
        let current = here.current
        let shelves = try childShelves(of: current)
        for shelf in shelves { say(TerminalText.visible("\(shelf)/")) }
        let books = try library.bookListings(directlyOn: current)
        for book in books { say(Self.line(for: book) + elsewhere(book.id)) }
        // An empty library is a dead end for someone new: say what fills it. (An empty shelf
        // stays an empty answer: scripts read `ls`.)
        if try current.isEmpty && shelves.isEmpty && books.isEmpty && library.hasNoBooks {
            say("(the library is empty: 'import FOLDER' adds the books in a folder)")
        }
    }

    /// "  · laptop 3:12:40 (yesterday 22:10)": the device that listened to the book last, when
    /// it is another one syncing with this library (as the player's last exchange found).
    func elsewhere(_ bookId: Int64) -> String {
        guard let newest = player.placesElsewhere(ofBook: bookId).first else { return "" }
        return TerminalText.visible("  · " + SyncText.placeText(newest))
    }

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

    func changeShelf(_ argument: String) throws {
        let current = here.current
        let target: String
        switch argument {
        case "/": target = ""
        case "..": target = LibraryDatabase.shelfNames(current).dropLast().joined(separator: "/")
        default: target = absoluteShelfPath(argument)
        }
        if !target.isEmpty, try library.shelfID(path: target) == nil {
            throw CommandError("no shelf '\(argument)' in /\(current): 'ls' shows the shelves here")
        }
        here.current = target
    }

    func tree() throws {
        let shelves = try library.shelfTree()
        if shelves.isEmpty { say(try library.hasNoBooks ? "(no shelves: the library is empty; 'import FOLDER' adds books)" : "(no shelves)") }
        for shelf in shelves {
            let name = shelf.path.split(separator: "/").last.map(String.init) ?? shelf.path
            say(String(repeating: "  ", count: shelf.depth) + TerminalText.visible("\(name)/  (\(LibraryText.counted(shelf.bookCount, "book")))"))
        }
    }

    func find(_ text: String) throws {
        let found = try library.bookListings(containing: text)
        if found.isEmpty { throw CommandError("no book's title, author or narrator contains '\(text)'") }
        for book in found { say(TerminalText.visible("/\(book.shelf ?? "")  ") + Self.line(for: book) + elsewhere(book.id)) }
    }
}
