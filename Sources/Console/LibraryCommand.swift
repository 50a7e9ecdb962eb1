public import Library

/// The REPL's library commands: what the `abplayer` subcommands of the same names do, with
/// shelves and books named relative to the current shelf.
public enum LibraryCommand: Equatable, Sendable {
    public enum ShelfAction: Equatable, Sendable {
        case create(String)
        case rename(String, to: String)
        /// nil parent: to the top.
        case move(String, under: String?)
        case remove(String, force: Bool)
    }

    public enum BookAction: Equatable, Sendable {
        case rename(String, title: String)
        /// nil shelf: on no shelf.
        case move(String, toShelf: String?)
        case remove(String)
        /// nil: the book playing.
        case items(String?)
        /// 1-based item numbers.
        case reorder(String, from: Int, to: Int)
        case add(String, paths: [String])
        /// 1-based item numbers.
        case removeItems(String, items: [Int])
    }

    case shelf(ShelfAction)
    /// nil shelf: the current one.
    case importPaths([String], shelf: String?, layout: ImportLayout = .folders)
    /// nil: every file of the library.
    /// Of `book` (nil: every book), searching `folders` (none: the nearest existing folder above
    /// each missing file), as `abplayer rescan FOLDER...` does.
    case rescan(book: String?, folders: [String])
    case book(BookAction)
    case browse(BrowseField, value: String?)
    /// `all`: the automatic bookmarks too.
    case bookmarks(book: String, all: Bool = false)
    /// `bookmarks export|import`: a book's bookmarks to or from a file.
    case bookmarkFile(BookmarkFileLine)
    case history(book: String?)
    case stats(book: String?)
    case export(path: String)
    case importState(path: String)

    /// The command names this enum parses.
    public static let names: Set<String> = ["shelf", "import", "rescan", "book", "browse", "history", "stats", "export", "import-state"]

    /// The words of `browse`'s first argument: the library's tag fields, and "author" for artist.
    public static let browseFields = ["author"] + BrowseField.allCases.map(\.rawValue)

    static let shelfActions = ["new", "rename", "mv", "rm"]
    static let bookActions = ["rename", "mv", "rm", "items", "reorder", "add", "remove"]

    /// Parses `name` (one of `names`, or `bookmarks` with a book) and its arguments.
    init(name: String, arguments: [String]) throws(CommandError) {
        func usage(_ key: String) -> CommandError {
            CommandError("usage: \(CommandHelp.named(key)?.usage ?? key)")
        }
        let rest: String? = arguments.isEmpty ? nil : arguments.joined(separator: " ")
        switch name {
        case "shelf": self = .shelf(try Self.shelfAction(arguments))
        case "book": self = .book(try Self.bookAction(arguments))
        case "import":
            var paths: [String] = []
            var shelf: String?
            var layout = ImportLayout.folders
            var words = arguments[...]
            while let word = words.popFirst() {
                if word == "--shelf" {
                    guard let value = words.popFirst() else { throw CommandError("import: --shelf needs a shelf, e.g. --shelf Fiction/Russian") }
                    shelf = value
                } else if word == "--layout" {
                    let layouts = ImportLayout.allCases.map(\.rawValue).joined(separator: " or ")
                    guard let value = words.popFirst(), let chosen = ImportLayout(rawValue: value) else {
                        throw CommandError("import: --layout needs \(layouts)")
                    }
                    layout = chosen
                } else if word.hasPrefix("--") {
                    throw CommandError("import: unknown option '\(word)': use --shelf SHELF or --layout folders|author-series")
                } else {
                    paths.append(word)
                }
            }
            guard !paths.isEmpty else { throw usage("import") }
            self = .importPaths(paths, shelf: shelf, layout: layout)
        case "rescan":
            // A folder is written as a path (/..., ~/..., ./..., ../...); other words name the book.
            let isFolder = { (word: String) in word.hasPrefix("/") || word == "~" || word.hasPrefix("~/") || word.hasPrefix(".") }
            let bookWords = arguments.filter { !isFolder($0) }
            self = .rescan(book: bookWords.isEmpty ? nil : bookWords.joined(separator: " "), folders: arguments.filter(isFolder))
        case "browse":
            guard let first = arguments.first else { throw usage("browse") }
            let field = first == "author" ? BrowseField.artist : BrowseField(rawValue: first)
            guard let field else {
                throw CommandError("browse: '\(first)' is not a tag: use \(Self.browseFields.joined(separator: ", "))")
            }
            self = .browse(field, value: arguments.count > 1 ? arguments.dropFirst().joined(separator: " ") : nil)
        case "bookmarks":
            if let line = try BookmarkFileLine(arguments) {
                self = .bookmarkFile(line)
                return
            }
            let words = arguments.filter { $0 != "--all" }
            guard !words.isEmpty else { throw usage("bookmarks") }
            self = .bookmarks(book: words.joined(separator: " "), all: words.count < arguments.count)
        case "history": self = .history(book: rest)
        case "stats": self = .stats(book: rest)
        case "export", "import-state":
            guard arguments.count == 1 else { throw usage(name) }
            self = name == "export" ? .export(path: arguments[0]) : .importState(path: arguments[0])
        default:
            throw CommandError("unknown command '\(name)': 'help' lists the commands")
        }
    }

    private static func shelfAction(_ arguments: [String]) throws(CommandError) -> ShelfAction {
        let wrong = CommandHelp.usageError("shelf")
        guard let action = arguments.first else { throw wrong }
        let rest = Array(arguments.dropFirst())
        switch (action, rest.count) {
        case ("new", 1): return .create(rest[0])
        case ("rename", 2): return .rename(rest[0], to: rest[1])
        case ("mv", 1), ("mv", 2): return .move(rest[0], under: rest.count == 2 ? rest[1] : nil)
        case ("rm", 1) where rest[0] != "--force": return .remove(rest[0], force: false)
        case ("rm", 2) where rest.contains("--force"):
            return .remove(rest.first { $0 != "--force" } ?? "--force", force: true)
        default:
            if !shelfActions.contains(action) {
                throw CommandError("shelf: '\(action)' is not an action: use new, rename, mv or rm")
            }
            throw wrong
        }
    }

    private static func bookAction(_ arguments: [String]) throws(CommandError) -> BookAction {
        let wrong = CommandHelp.usageError("book")
        guard let action = arguments.first else { throw wrong }
        let rest = Array(arguments.dropFirst())
        func numbers(_ words: ArraySlice<String>) throws(CommandError) -> [Int] {
            var result: [Int] = []
            for word in words {
                guard let number = Int(word), number >= 1 else {
                    throw CommandError("book \(action): '\(word)' is not an item number: items are numbered from 1 ('book items BOOK' lists them)")
                }
                result.append(number)
            }
            return result
        }
        switch (action, rest.count) {
        case ("rename", 2): return .rename(rest[0], title: rest[1])
        case ("mv", 1), ("mv", 2): return .move(rest[0], toShelf: rest.count == 2 ? rest[1] : nil)
        case ("rm", 1...): return .remove(rest.joined(separator: " "))
        case ("items", _): return .items(rest.isEmpty ? nil : rest.joined(separator: " "))
        case ("reorder", 3):
            let places = try numbers(rest[1...])
            return .reorder(rest[0], from: places[0], to: places[1])
        case ("add", 2...): return .add(rest[0], paths: Array(rest.dropFirst()))
        case ("remove", 2...): return .removeItems(rest[0], items: try numbers(rest[1...]))
        default:
            if !bookActions.contains(action) {
                throw CommandError("book: '\(action)' is not an action: use \(bookActions.joined(separator: ", "))")
            }
            throw CommandHelp.usageError("book", action: action)
        }
    }
}

extension CommandHelp {
    static let library: [CommandHelp] = [
        CommandHelp(name: "library", topic: .library, usage: "library", summary: "the shelves and books on one screen, in-progress books first: ↑/↓ j/k move, Tab switches panes, / searches, Enter plays, q back"),
        CommandHelp(name: "shelf", topic: .library, usage: "shelf new|rename|mv|rm ...", summary: "make, rename, move and remove shelves (paths from the current shelf, or /A/B)",
                    actions: [
                        Action(name: "new", usage: "shelf new PATH", summary: "make the shelf PATH"),
                        Action(name: "rename", usage: "shelf rename PATH NAME", summary: "give the shelf PATH the name NAME"),
                        Action(name: "mv", usage: "shelf mv PATH [PARENT]", summary: "move the shelf PATH into PARENT (none: to the top)"),
                        Action(name: "rm", usage: "shelf rm [--force] PATH", summary: "remove the shelf PATH when empty; --force: with its shelves and books (their media stay in the library)"),
                    ]),
        CommandHelp(name: "book", topic: .library, usage: "book ACTION ...", summary: "rename, move or remove a book; list, reorder, add or remove its items (its files)",
                    actions: [
                        Action(name: "rename", usage: "book rename BOOK TITLE", summary: "give BOOK the title TITLE"),
                        Action(name: "mv", usage: "book mv BOOK [SHELF]", summary: "put BOOK on SHELF (none: on no shelf)"),
                        Action(name: "rm", usage: "book rm BOOK", summary: "delete BOOK with its position, bookmarks and history (its files are not touched)"),
                        Action(name: "items", usage: "book items [BOOK]", summary: "the items of BOOK (none: the book playing), numbered"),
                        Action(name: "reorder", usage: "book reorder BOOK I J", summary: "move item I of BOOK to place J"),
                        Action(name: "add", usage: "book add BOOK PATH...", summary: "add audio files to BOOK"),
                        Action(name: "remove", usage: "book remove BOOK N...", summary: "take items N... out of BOOK (the files are not touched)"),
                    ]),
        CommandHelp(name: "import", topic: .library, usage: "import PATH... [--shelf SHELF] [--layout folders|author-series]", summary: "import folders and files as books, onto the current shelf or SHELF: a folder's files sharing an album tag are a book, CD1/Disc 2 folders its discs, an M4B a book by itself"),
        CommandHelp(name: "rescan", topic: .library, usage: "rescan [BOOK] [FOLDER...]", summary: "find moved files by their content (of BOOK, or of every book; in FOLDERs, paths, when given); mark the rest missing"),
        CommandHelp(name: "browse", topic: .library, usage: "browse FIELD [VALUE]", summary: "the values of a tag (\(LibraryCommand.browseFields.joined(separator: ", "))), or the files with VALUE"),
        CommandHelp(name: "history", topic: .library, usage: "history [BOOK]", summary: "listening sessions, newest first"),
        CommandHelp(name: "stats", topic: .library, usage: "stats [BOOK]", summary: "time listened per day and per book; a book's items' play counts"),
        CommandHelp(name: "export", topic: .library, usage: "export PATH", summary: "write positions, bookmarks and settings as JSON"),
        CommandHelp(name: "import-state", topic: .library, usage: "import-state PATH", summary: "read positions, bookmarks and settings written by export"),
    ]
}
