public import Library

/// `bookmarks export [BOOK] [--format F] [--all] FILE` and `bookmarks import [BOOK] [--format F]
/// FILE`: FILE is the last word, BOOK the words before it (none: the book playing).
public struct BookmarkFileLine: Equatable, Sendable {
    public enum Direction: Equatable, Sendable {
        /// `all`: the automatic bookmarks too.
        case exporting(all: Bool)
        case importing
    }

    public let direction: Direction
    /// nil: the book playing.
    public let book: String?
    /// nil: what the file's name (or, importing, its content) says.
    public let format: BookmarkFileFormat?
    /// "-" when exporting: the lines are said.
    public let path: String

    /// The line's parts, or nil when its first word is neither `export` nor `import`.
    init?(_ arguments: [String]) throws(CommandError) {
        guard let action = arguments.first, action == "export" || action == "import" else { return nil }
        let exporting = action == "export"
        var words = arguments.dropFirst()
        var rest: [String] = []
        var format: BookmarkFileFormat?
        var all = false
        while let word = words.popFirst() {
            switch word {
            case "--format":
                guard let value = words.popFirst(), let chosen = BookmarkFileFormat(rawValue: value) else {
                    throw CommandError("bookmarks \(action): --format needs \(BookmarkFileFormat.names)")
                }
                format = chosen
            case "--all" where exporting: all = true
            case _ where word.hasPrefix("--") && word != "--":
                throw CommandError("bookmarks \(action): unknown option '\(word)': " + (exporting ? "use --format FORMAT or --all" : "use --format FORMAT"))
            default: rest.append(word)
            }
        }
        guard let path = rest.popLast() else { throw CommandHelp.usageError("bookmarks", action: action) }
        if format == nil, exporting, path == "-" || BookmarkFileFormat(fileName: path) == nil {
            throw CommandError("bookmarks export: '\(path)' does not say its format: add --format \(BookmarkFileFormat.names)")
        }
        direction = exporting ? .exporting(all: all) : .importing
        book = rest.isEmpty ? nil : rest.joined(separator: " ")
        self.format = format
        self.path = path
    }
}
