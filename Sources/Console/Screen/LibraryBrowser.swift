import Foundation
import Library

/// The library screen's own state: the whole library in memory (read once, when the screen
/// opens), the shelf tree with what is folded, the books listed for the selected shelf or the
/// search, the selections and the pane with the focus. Moving, folding and searching touch only
/// memory, however big the library; the one query a key may cost is for the lengths of the
/// books it brings into view (`booksWithoutLength`), at most a screenful.
struct LibraryBrowser {
    enum Pane: Equatable { case shelves, books }

    /// A row of the shelf pane.
    enum Entry: Equatable {
        case all
        case inProgress
        /// An index into `shelves`.
        case shelf(Int)
    }

    /// What a key asks of the console.
    enum Action: Equatable {
        case play(bookId: Int64)
        case back
    }

    /// Depth first, in name order (`CatalogStore.snapshot()`).
    let shelves: [LibraryCatalog.Shelf]
    /// In the order of the shelf tree on the left (books on no shelf first), then by series
    /// number, then by title, as `art` and `abplayer books` order a shelf's books.
    let books: [BookSummary]
    /// Per shelf: the end (exclusive) of its subtree in `shelves`, which depth-first order keeps
    /// contiguous; and how many books that subtree holds.
    private let subtreeEnd: [Int]
    let subtreeBookCounts: [Int]
    /// Per book: its shelf's index in `shelves` (nil: on no shelf).
    private let shelfIndex: [Int?]
    /// Per book: title, author and narrator, lowercased once, as UTF-8 bytes for the search
    /// (a byte loop over 10,000 of them takes well under a millisecond; `String.contains` several).
    private let searchable: [[UInt8]]
    /// The books in progress, the one listened to last first (the smart shelf's order).
    private let recent: [Int]
    var inProgressCount: Int { recent.count }
    /// Whether `q` goes back to the player screen (the screen was opened from it) or the prompt.
    let returnsToPlayer: Bool

    private(set) var folded: Set<Int64> = []
    private(set) var entries: [Entry] = []
    /// The books the book pane lists: indices into `books`, in-progress ones first.
    private(set) var listed: [Int] = []
    private(set) var focus = Pane.books
    private(set) var shelfSelection = 0
    private(set) var bookSelection = 0
    /// The first row each pane shows; moved only as far as keeps the selection in view.
    private(set) var shelfTop = 0
    private(set) var bookTop = 0
    /// The search in effect ("" none), and whether it is being typed.
    private(set) var query = ""
    private(set) var isTyping = false
    /// The lengths read so far, by book id: those the summaries carry (books with a place), and
    /// those of the books shown, read as they come into view (`booksWithoutLength`).
    private(set) var lengths: [Int64: Double] = [:]

    init(shelves: [LibraryCatalog.Shelf], books: [BookSummary], returnsToPlayer: Bool = false) {
        self.shelves = shelves
        var position: [Int64: Int] = [:]
        for (index, shelf) in shelves.enumerated() { position[shelf.id] = index }
        // Shelves compare by their place in the tree (integers): titles are compared only
        // within a shelf and series.
        let keyed = books.map { book in (book, book.shelfId.flatMap { position[$0] } ?? -1, book.seriesNumber ?? .infinity) }
            .sorted { ($0.1, $0.2, $0.0.title) < ($1.1, $1.2, $1.0.title) }
        self.books = keyed.map(\.0)
        shelfIndex = keyed.map { $0.1 >= 0 ? $0.1 : nil }
        var ends = Array(shelves.indices.map { $0 + 1 })
        var open: [Int] = []
        for (index, shelf) in shelves.enumerated() {
            while let last = open.last, shelves[last].depth >= shelf.depth { ends[open.removeLast()] = index }
            open.append(index)
        }
        for index in open { ends[index] = shelves.count }
        subtreeEnd = ends
        var counts = Array(repeating: 0, count: shelves.count)
        for index in shelfIndex.compactMap({ $0 }) { counts[index] += 1 }
        // Children come after their parent: adding from the end sums each subtree once.
        for index in shelves.indices.reversed() {
            if let parent = shelves[index].parentId.flatMap({ position[$0] }) { counts[parent] += counts[index] }
        }
        subtreeBookCounts = counts
        searchable = self.books.map { Array([$0.title, $0.author ?? "", $0.narrator ?? ""].joined(separator: "\n").lowercased().utf8) }
        let ordered = self.books
        recent = ordered.indices.filter { ordered[$0].isInProgress }
            .sorted { (ordered[$0].lastListened ?? .distantPast) > (ordered[$1].lastListened ?? .distantPast) }
        self.returnsToPlayer = returnsToPlayer
        for book in books { if let length = book.durationSeconds { lengths[book.id] = length } }
        entries = makeEntries()
        listed = makeListing()
    }

    var selectedEntry: Entry { entries[shelfSelection] }

    var selectedBook: BookSummary? { listed.isEmpty ? nil : books[listed[bookSelection]] }

    /// The rows of `listed` the book pane shows in `height` rows.
    func visibleBooks(height: Int) -> Range<Int> {
        let top = Self.top(bookTop, selection: bookSelection, height: height)
        return min(top, listed.count)..<min(listed.count, top + max(1, height))
    }

    /// The books on screen whose length has not been read yet.
    func booksWithoutLength(height: Int) -> [Int64] {
        visibleBooks(height: height).map { books[listed[$0]].id }.filter { lengths[$0] == nil }
    }

    /// Reads the lengths of the books coming into view (one query for all of them, none once
    /// they are known).
    mutating func learnLengths(from library: LibraryDatabase, height: Int) throws {
        let missing = booksWithoutLength(height: height)
        if !missing.isEmpty { learn(try library.catalog.bookLengths(of: missing)) }
    }

    mutating func learn(_ read: [Int64: Double]) {
        lengths.merge(read) { _, new in new }
    }

    /// Whether the shelf has shelves inside it (it can fold).
    func hasChildren(_ shelf: Int) -> Bool { subtreeEnd[shelf] > shelf + 1 }

    // MARK: Keys

    /// Does what `key` means here; `pageHeight` is how many rows a pane shows (PgUp/PgDn move by
    /// it, and the selection is kept inside it).
    mutating func handle(_ key: Key, pageHeight: Int) -> Action? {
        defer { keepSelectionVisible(height: pageHeight) }
        if isTyping { return type(key) }
        switch key {
        case .up, .character("k"): move(by: -1)
        case .down, .character("j"): move(by: 1)
        case .pageUp: move(by: -max(1, pageHeight - 1))
        case .pageDown: move(by: max(1, pageHeight - 1))
        case .home, .character("g"): move(by: -Int.max / 2)
        case .end, .character("G"): move(by: Int.max / 2)
        case .tab: focus = focus == .books ? .shelves : .books
        case .left, .character("h"):
            if focus == .books { focus = .shelves } else { foldOrGoUp() }
        case .right, .character("l"):
            if focus == .shelves { unfoldOrEnter() }
        case .enter:
            if focus == .shelves { focus = .books } else if let book = selectedBook { return .play(bookId: book.id) }
        case .character("/"):
            isTyping = true
            focus = .books
        case .escape where !query.isEmpty:
            setQuery("")
        case .character("q"), .escape: return .back
        default: break
        }
        return nil
    }

    /// A key while the search is typed: letters add to it, arrows move in what it found, Enter
    /// keeps it, Esc drops it.
    private mutating func type(_ key: Key) -> Action? {
        switch key {
        case let .character(character): setQuery(query + String(character))
        case .backspace: setQuery(String(query.dropLast()))
        case .up: move(by: -1)
        case .down: move(by: 1)
        case .enter: isTyping = false
        case .escape:
            isTyping = false
            setQuery("")
        default: break
        }
        return nil
    }

    private mutating func move(by step: Int) {
        func clamp(_ value: Int, _ count: Int) -> Int { min(max(0, count - 1), max(0, value)) }
        switch focus {
        case .shelves:
            let before = shelfSelection
            shelfSelection = clamp(shelfSelection + step, entries.count)
            if shelfSelection != before { shelfChanged() }
        case .books:
            bookSelection = clamp(bookSelection + step, listed.count)
        }
    }

    private mutating func foldOrGoUp() {
        guard case let .shelf(index) = selectedEntry else { return }
        let shelf = shelves[index]
        if hasChildren(index), !folded.contains(shelf.id) {
            folded.insert(shelf.id)
            entries = makeEntries()
        } else if let parent = shelf.parentId, let row = entries.firstIndex(where: { entry in
            if case let .shelf(other) = entry { shelves[other].id == parent } else { false }
        }) {
            shelfSelection = row
            shelfChanged()
        }
    }

    private mutating func unfoldOrEnter() {
        if case let .shelf(index) = selectedEntry, folded.contains(shelves[index].id) {
            folded.remove(shelves[index].id)
            entries = makeEntries()
        } else {
            focus = .books
        }
    }

    /// Another shelf: its books from the top, and no search (a search looks in every book).
    private mutating func shelfChanged() {
        query = ""
        listed = makeListing()
        bookSelection = 0
        bookTop = 0
    }

    private mutating func setQuery(_ text: String) {
        let selected = selectedBook?.id
        query = text
        listed = makeListing()
        // The book selected stays selected while it still matches.
        bookSelection = selected.flatMap { id in listed.firstIndex { books[$0].id == id } } ?? 0
    }

    /// The same view of a library read again (the library watch changed it): what was folded,
    /// the shelf, the search, the focus and the book selected, where they still exist.
    mutating func carryOver(_ old: LibraryBrowser) {
        let ids = Set(shelves.map(\.id))
        folded = old.folded.intersection(ids)
        entries = makeEntries()
        let entry: Entry? = switch old.selectedEntry {
        case .all: .all
        case .inProgress: .inProgress
        case let .shelf(index): shelves.firstIndex { $0.id == old.shelves[index].id }.map(Entry.shelf)
        }
        shelfSelection = entry.flatMap(entries.firstIndex) ?? 0
        shelfTop = old.shelfTop
        focus = old.focus
        isTyping = old.isTyping
        query = old.query
        listed = makeListing()
        let selected = old.selectedBook?.id
        bookSelection = selected.flatMap { id in listed.firstIndex { books[$0].id == id } } ?? 0
        bookTop = old.bookTop
    }

    /// Moves each pane's first row just enough for its selection to show in `height` rows.
    mutating func keepSelectionVisible(height: Int) {
        shelfTop = Self.top(shelfTop, selection: shelfSelection, height: height)
        bookTop = Self.top(bookTop, selection: bookSelection, height: height)
    }

    static func top(_ top: Int, selection: Int, height: Int) -> Int {
        let height = max(1, height)
        if selection < top { return selection }
        if selection >= top + height { return selection - height + 1 }
        return top
    }

    // MARK: What is listed

    /// The fixed entries, then the shelves not inside a folded one.
    private func makeEntries() -> [Entry] {
        var entries: [Entry] = [.all, .inProgress]
        var index = 0
        while index < shelves.count {
            entries.append(.shelf(index))
            index = folded.contains(shelves[index].id) ? subtreeEnd[index] : index + 1
        }
        return entries
    }

    /// The search's matches in every book, or the selected entry's books: those in progress
    /// first, the one listened to last first, then the others in the usual order.
    private func makeListing() -> [Int] {
        let matches: (Int) -> Bool
        if !query.isEmpty {
            let needle = Array(query.lowercased().utf8)
            matches = { Self.contains(searchable[$0], needle) }
        } else {
            switch entries[shelfSelection] {
            case .all: matches = { _ in true }
            case .inProgress: return recent
            case let .shelf(shelf):
                let range = shelf..<subtreeEnd[shelf]
                matches = { shelfIndex[$0].map(range.contains) ?? false }
            }
        }
        return recent.filter(matches) + books.indices.filter { !books[$0].isInProgress && matches($0) }
    }

    /// Whether `needle` occurs in `haystack`, byte for byte (both lowercased UTF-8: a match of
    /// bytes is a match of characters, UTF-8 never starting a character inside another).
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        guard haystack.count >= needle.count else { return false }
        return haystack.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { pin in
                var start = 0
                let last = hay.count - pin.count
                while start <= last {
                    if hay[start] == first {
                        var offset = 1
                        while offset < pin.count, hay[start + offset] == pin[offset] { offset += 1 }
                        if offset == pin.count { return true }
                    }
                    start += 1
                }
                return false
            }
        }
    }
}
