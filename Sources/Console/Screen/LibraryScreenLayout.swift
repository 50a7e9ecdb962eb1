import PlayerCore
import Library

/// The library screen as lines of text: a `LibraryBrowser` laid out for a terminal size, cmus
/// style, the shelf tree on the left and the books on the right. Pure, so it is tested without
/// a terminal; only the rows that show are laid out, whatever the size of the library.
struct LibraryScreenLayout {
    /// The book loaded in the player, where it is now (it moves while it plays).
    struct Playing: Equatable {
        let bookId: Int64
        let positionSeconds: Double?
        var durationSeconds: Double? = nil
    }

    let browser: LibraryBrowser
    var playing: Playing?
    /// The last notice or error, shown on the message line.
    var message: String?

    static let keys = ["↑/↓ j/k move", "Tab pane", "←/→ fold", "Enter play", "/ search", "q back"]
    static let typingKeys = ["type: title, author, narrator", "↑/↓ move", "Enter keep", "Esc clear"]

    /// Rows for the panes: the title and headings lines above, the message and keys lines below.
    static func paneHeight(_ size: ScreenSize) -> Int { max(1, size.rows - 4) }

    /// The shelf pane's width: a quarter of the screen, 14 to 30 cells (half of a very narrow one).
    static func shelfWidth(columns: Int) -> Int { min(30, max(14, columns / 4), max(1, columns / 2)) }

    func lines(size: ScreenSize, style: ScreenStyle) -> [String] {
        let width = max(1, size.columns)
        let left = Self.shelfWidth(columns: width)
        let right = max(1, width - left - 1)
        let height = Self.paneHeight(size)
        let columns = BookColumns(width: right)

        var title = "abplayer library — \(LibraryText.counted(browser.books.count, "book")), \(browser.inProgressCount) in progress"
        if !browser.query.isEmpty { title += " — search “\(browser.query)”: \(browser.listed.count) found" }
        let heading = TextFit.padded(focusMark(.shelves) + "Shelves", to: left) + "│" + focusMark(.books) + columns.heading
        var lines = [
            style.styled(TextFit.padded(title, to: width), "1;7"),
            style.styled(TextFit.truncate(heading, to: width), "1"),
        ]
        let shelfTop = LibraryBrowser.top(browser.shelfTop, selection: browser.shelfSelection, height: height)
        let bookTop = browser.visibleBooks(height: height).lowerBound
        for row in 0..<height {
            lines.append(shelfRow(shelfTop + row, width: left, style: style) + "│" + bookRow(bookTop + row, columns: columns, style: style))
        }
        let status: String
        if browser.isTyping {
            status = "/" + browser.query + "▏"
        } else if let message {
            status = message
        } else if browser.books.isEmpty {
            status = "the library is empty: q, then 'import FOLDER' adds the books in a folder"
        } else if browser.listed.isEmpty {
            status = browser.query.isEmpty ? "no books here" : "no book's title, author or narrator contains “\(browser.query)” — Esc clears"
        } else {
            status = "\(browser.bookSelection + 1)/\(browser.listed.count)"
        }
        lines.append(style.styled(TextFit.truncate(status, to: width), "1"))
        let keys = (browser.isTyping ? Self.typingKeys : Self.keys).joined(separator: "  ")
        lines.append(style.styled(TextFit.truncate(keys, to: width), "2"))
        return Array(lines.suffix(max(1, size.rows)))
    }

    /// The focused pane's heading starts with `>`, the other's with a space.
    private func focusMark(_ pane: LibraryBrowser.Pane) -> String { browser.focus == pane ? ">" : " " }

    /// The selected row: marked `>` (so it shows without colour) and, in colour, in reverse video
    /// in the pane with the focus, bold in the other.
    private func selected(_ text: String, focused: Bool, style: ScreenStyle) -> String {
        style.styled(text, focused ? "7" : "1")
    }

    private func shelfRow(_ row: Int, width: Int, style: ScreenStyle) -> String {
        guard row < browser.entries.count else { return String(repeating: " ", count: width) }
        let text: String
        switch browser.entries[row] {
        case .all: text = "All books (\(browser.books.count))"
        case .inProgress: text = "In progress (\(browser.inProgressCount))"
        case let .shelf(index):
            // Indented two cells a level (at most half the pane: shelves nest without limit),
            // ▾ open, ▸ folded, nothing for a shelf without shelves inside.
            let shelf = browser.shelves[index]
            let name = shelf.path.split(separator: "/").last.map(String.init) ?? shelf.path
            let fold = !browser.hasChildren(index) ? " " : browser.folded.contains(shelf.id) ? "▸" : "▾"
            let indent = String(repeating: " ", count: min(shelf.depth * 2, width / 2))
            // A long name is cut, not its count.
            let count = " (\(browser.subtreeBookCounts[index]))"
            let room = width - 2 - indent.count - 1 - count.count
            text = indent + fold + (room >= 4 ? TextFit.truncate(name, to: room) + count : name + count)
        }
        let isSelected = row == browser.shelfSelection
        let line = TextFit.padded((isSelected ? "> " : "  ") + text, to: width)
        return isSelected ? selected(line, focused: browser.focus == .shelves, style: style) : line
    }

    private func bookRow(_ row: Int, columns: BookColumns, style: ScreenStyle) -> String {
        guard row < browser.listed.count else { return "" }
        let book = browser.books[browser.listed[row]]
        let isPlaying = playing?.bookId == book.id
        let position = isPlaying ? playing?.positionSeconds : book.positionSeconds
        let length = (isPlaying ? playing?.durationSeconds : nil) ?? browser.lengths[book.id]
        let progress = book.finished && !isPlaying ? 1
            : length.map { $0 > 0 ? min(1, max(0, (position ?? 0) / $0)) : 0 } ?? 0
        let isSelected = row == browser.bookSelection
        let line = (isSelected ? ">" : " ") + (isPlaying ? "▶" : " ") + " "
            + columns.row(title: book.title, author: book.author, seconds: length, progress: progress)
        return isSelected ? selected(line, focused: browser.focus == .books, style: style) : line
    }
}

/// The book pane's columns for a width: title and author share what the length, the bar and
/// the percentage leave (3 : 2); a narrow pane keeps only the title and the percentage.
struct BookColumns {
    let width: Int
    let title: Int
    let author: Int
    let bar: Int
    /// Mark, playing mark and a space before the title.
    static let lead = 3
    static let length = 8
    static let percent = 4

    init(width: Int) {
        self.width = width
        let text = width - Self.lead
        bar = max(4, min(20, (text - 16) / 6))
        let shared = text - (1 + Self.length + 1 + bar + 1 + Self.percent) - 1
        if shared >= 16 {
            title = shared * 3 / 5
            author = shared - title
        } else {
            // Title and percentage only; on a sliver of a pane, the title alone.
            title = text - 1 - Self.percent >= 1 ? text - 1 - Self.percent : max(0, text)
            author = 0
        }
    }

    private var showsPercent: Bool { author > 0 || title + 1 + Self.percent <= width - Self.lead }

    var heading: String {
        guard author > 0 else { return "  " + TextFit.padded("Title", to: title) + (showsPercent ? " Done" : "") }
        return "  " + TextFit.padded("Title", to: title) + " " + TextFit.padded("Author", to: author) + " "
            + TextFit.padded("  Length", to: Self.length) + " " + TextFit.padded("Progress", to: bar + 1 + Self.percent)
    }

    /// `seconds` nil: not read yet, "?" (`LibraryText.duration`'s unknown).
    func row(title text: String, author name: String?, seconds: Double?, progress: Double) -> String {
        let percent = "\(Int(saturating: (progress * 100).rounded(.down)))%"
        let percentText = String(repeating: " ", count: max(0, Self.percent - percent.count)) + percent
        guard author > 0 else { return TextFit.padded(text, to: title) + (showsPercent ? " " + percentText : "") }
        let length = LibraryText.duration(seconds)
        return TextFit.padded(text, to: title) + " " + TextFit.padded(name ?? "", to: author) + " "
            + String(repeating: " ", count: max(0, Self.length - length.count)) + length + " "
            + TextFit.bar(progress, width: bar, ascii: false) + " " + percentText
    }
}
