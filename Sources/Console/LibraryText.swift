import Foundation
public import Library
import PlayerCore
import Player
import StandardStreams

/// How the library's lists and reports read, the same in the `abplayer` subcommands and the
/// REPL: each function gives the lines to print, the caller decides where they go. Every line is
/// one line with what came from files (titles, paths, notes, reasons) made visible by `TerminalText`.
public enum LibraryText {
    /// How many sessions `history` shows, and how many days back `stats` goes, by default.
    public static let historyLimit = 20
    public static let statsDays = 14

    /// Book durations as people read them, in whole seconds: "1:02:03", "4:05"; "?" unknown.
    public static func duration(_ seconds: Double?) -> String {
        guard let seconds, seconds.isFinite else { return "?" }
        // In whole seconds as places are shown (`Timecode.format`): a book of 4:02.6 is 4:02 in
        // `books` as in `ls` and `status`, and its end reads "4:02 / 4:02", not "4:02 / 4:03".
        return Timecode.format(seconds: max(0, seconds))
    }

    /// "1. Title  4:05", with "(missing: PATH)" when its file is gone.
    public static func itemLine(number: Int, _ item: BookListing.Item) -> String {
        TerminalText.visible("\(number). \(item.title)  \(duration(item.durationSeconds))\(item.isMissing ? "  (missing: \(item.path))" : "")")
    }

    /// What an import did: a line per book, the skipped files (for standard error), a summary.
    public struct ImportLines {
        public let books: [String]
        public let skipped: [String]
        /// "FILE: what is wrong with it", for standard error.
        public let warnings: [String]
        public let summary: String
    }

    public static func importLines(_ report: ImportReport) -> ImportLines {
        let books = report.books.map { book in
            let what = book.existed
                ? "already in the library" + (book.newFiles > 0 ? ", \(counted(book.newFiles, "new file")) added" : "")
                : counted(book.newFiles, "file")
            return TerminalText.visible("#\(book.id) \(book.title) (\(what))")
        }
        let newBooks = report.books.filter { !$0.existed }.count
        return ImportLines(
            books: books,
            skipped: report.skipped.map(skippedLine),
            warnings: report.warnings.map { TerminalText.visible("\($0.path): \($0.message)") },
            summary: "\(counted(newBooks, "new book")), \(counted(report.filesImported, "file")) imported, \(report.filesAlreadyPresent) already present, \(report.skipped.count) skipped")
    }

    /// The shelf tree with the books on each shelf, each under its shelf, indented; the books on
    /// no shelf (the top level) first. `files`: a shelf's line counts its files too.
    public static func treeLines(_ shelves: [ShelfListing], books: [BookListing], files: Bool = false) -> [String] {
        let onShelf = Dictionary(grouping: books) { $0.shelf ?? "" }
        var lines = (onShelf[""] ?? []).map(LibraryCommands.line(for:))
        for shelf in shelves {
            let indent = String(repeating: "  ", count: shelf.depth)
            let name = shelf.path.split(separator: "/").last.map(String.init) ?? shelf.path
            let count = counted(shelf.bookCount, "book") + (files && shelf.bookCount > 0 ? ", \(counted(shelf.itemCount, "file"))" : "")
            lines.append(indent + TerminalText.visible("\(name)/  (\(count))"))
            lines += (onShelf[shelf.path] ?? []).map { indent + "  " + LibraryCommands.line(for: $0) }
        }
        return lines
    }

    /// "1 file", "2 files", "0 new books": the noun in the singular for exactly one.
    public static func counted(_ number: Int, _ singular: String, plural: String? = nil) -> String {
        "\(number) \(number == 1 ? singular : plural ?? singular + "s")"
    }

    /// What `bookmarks export` says it wrote, and what the format left out (`BookmarkFile.leftOut`).
    public static func exportedLine(_ entries: [BookmarkEntry], as format: BookmarkFileFormat, of title: String, to file: String) -> String {
        let leftOut = BookmarkFile.leftOut(entries, as: format)
        let line = TerminalText.visible("exported \(counted(entries.count - leftOut, "bookmark")) of \(title) to \(file)")
        guard leftOut > 0 else { return line }
        let (its, it) = leftOut == 1 ? ("its", "it") : ("their", "them")
        return line + "; \(leftOut) left out, \(its) time in the book not known yet (a file before \(it) has not been played through): "
            + "csv and json keep \(it) by file"
    }

    /// Listening sessions, newest first, in local time as `sync status` says times:
    /// "today 22:00  0:40  x1.0  Title", "2026-11-21 08:10  1:02:03  x1.5  Title".
    public static func historyLines(_ library: LibraryDatabase, book: Int64?, limit: Int) throws -> [String] {
        let titles = Dictionary(uniqueKeysWithValues: try library.catalog.bookListings().map { ($0.id, $0.title) })
        return try library.history.sessions(ofBook: book, limit: limit).map { session in
            "\(SyncText.when(session.startedAt))  \(duration(session.wallSeconds))  x\(session.speed)  \(TerminalText.visible(titles[session.bookId] ?? "?"))"
        }
    }

    /// Time listened per day (`days` back) and per book; or, for one book, its items' play counts.
    /// Where skip silence saved time, or intro and outro skipping left some out, how much, per
    /// book and in total.
    public static func statsLines(_ library: LibraryDatabase, book: Int64?, days: Int) throws -> [String] {
        if let book {
            return try library.history.itemPlays(ofBook: book).map { "\($0.playCount)×  \(TerminalText.visible($0.title))" }
                + silenceSkippedLine(try library.history.skippedSeconds(.silence, ofBook: book), suffix: "")
                + introOutroSkippedLine(try library.history.skippedSeconds(.introOutro, ofBook: book), suffix: "")
        }
        return ["per day:"]
            + (try library.history.listeningPerDay(days: days).map { "  \($0.day)  \(duration($0.wallSeconds))" })
            + ["per book:"]
            + (try library.history.listeningPerBook().map {
                let skipped = try library.history.skippedSeconds(.silence, ofBook: $0.bookId)
                let introOutro = try library.history.skippedSeconds(.introOutro, ofBook: $0.bookId)
                let saved = (skipped > 0 ? "  silence skipped: \(Timecode.format(seconds: skipped))" : "")
                    + (introOutro > 0 ? "  intros/outros skipped: \(Timecode.format(seconds: introOutro))" : "")
                return "  \(duration($0.wallSeconds))  \(counted($0.sessions, "session"))\(saved)  \(TerminalText.visible($0.title))"
            })
            + silenceSkippedLine(try library.history.skippedSeconds(.silence), suffix: " in total")
            + introOutroSkippedLine(try library.history.skippedSeconds(.introOutro), suffix: " in total")
    }

    /// "intros/outros skipped: 1:30" (nothing when none was left out).
    static func introOutroSkippedLine(_ seconds: Double, suffix: String) -> [String] {
        seconds > 0 ? ["intros/outros skipped: \(Timecode.format(seconds: seconds))\(suffix)"] : []
    }

    /// "silence skipped: 12:34" (nothing when skip silence never saved a second).
    static func silenceSkippedLine(_ seconds: Double, suffix: String) -> [String] {
        seconds > 0 ? ["silence skipped: \(Timecode.format(seconds: seconds))\(suffix)"] : []
    }

    /// What a rescan found: moved and returned files, the still-missing ones (for standard
    /// error), and a summary.
    public static func rescanLines(_ report: RescanReport) -> (found: [String], missing: [String], summary: String) {
        (report.moved.map { TerminalText.visible("moved: \($0.from) -> \($0.to)") } + report.returned.map { TerminalText.visible("back: \($0)") },
         report.missing.map { TerminalText.visible("missing: \($0)") },
         "\(report.moved.count) moved, \(report.returned.count) back, \(report.missing.count) missing")
    }

    /// One line for what the library watch did to a book: "library: new book #7 Dune Messiah
    /// (2 files)", "library: Dune: 2 files added, 1 file missing".
    public static func changeLine(_ change: LibraryChange) -> String {
        func count(_ number: Int, _ what: String) -> String? {
            number == 0 ? nil : "\(counted(number, "file")) \(what)"
        }
        if change.isNewBook {
            return TerminalText.visible("library: new book #\(change.bookId) \(change.title) (\(counted(change.filesAdded, "file")))")
        }
        let parts = [count(change.filesAdded, "added"), count(change.filesMoved, "moved"),
                     count(change.filesMissing, "missing"), count(change.filesReturned, "back")].compactMap { $0 }
        return TerminalText.visible("library: \(change.title): " + parts.joined(separator: ", "))
    }

    /// A file an import or the library watch could not read, and why.
    static func skippedLine(_ file: SkippedFile) -> String {
        TerminalText.visible("skipped \(file.path): \(file.reason)")
    }

    /// What the library watch could not take, said as `import` says it, except that more than
    /// three files of one folder are one line: a folder of programs or logs put beside the books
    /// is not news worth a line a file (a screen reader would read every one, mid-book).
    static func watchSkippedLines(_ files: [SkippedFile]) -> [String] {
        let byFolder = Dictionary(grouping: files) { ($0.path as NSString).deletingLastPathComponent }
        return byFolder.keys.sorted().flatMap { folder -> [String] in
            let skipped = byFolder[folder]!
            guard skipped.count > 3 else { return skipped.map(skippedLine) }
            return [TerminalText.visible("skipped \(skipped.count) files in \(folder) that no decoder reads ('import \(folder)' names each and why)")]
        }
    }

    /// Why the library watch is not running (inotify could not be used); the player goes on.
    public static func watchOffLine(_ error: any Error) -> String {
        TerminalText.visible("library watch off: \(error)")
    }

    public static func stateImportLines(_ report: StateImportReport) -> (unmatched: [String], summary: String) {
        (report.unmatched.map { TerminalText.visible("no book in the library matches '\($0)'") },
         "\(counted(report.matched.count, "book")) restored, \(report.unmatched.count) not found")
    }

    /// "value  (count)" for a tag's values.
    public static func browseLine(_ entry: BrowseValue) -> String { TerminalText.visible("\(entry.value)  (\(entry.mediaCount))") }

    /// "Title  4:05  /path/file.mp3" for a media file.
    public static func mediaLine(_ media: Media) -> String {
        TerminalText.visible("\(media.displayTitle)  \(duration(media.durationSeconds))  \(media.path)")
    }
}

/// A one-line progress bar on standard error, drawn only when it is a terminal that moves the
/// cursor (it redraws itself with CR and erases with ESC[K): files done of the total, the rate
/// and the time left. Under TERM=dumb, in plain mode or into a file or pipe nothing is drawn; the
/// summary that follows says what was done.
public final class ProgressBar {
    private let label: String
    private let isTerminal: Bool
    private let clock = ContinuousClock()
    private let started: ContinuousClock.Instant
    private var drawn = false

    public init(label: String, plain: Bool = false) {
        self.label = label
        isTerminal = !plain && ScreenStyle(environment: ProcessInfo.processInfo.environment, isTerminal: isatty(2) == 1).mode != .plain
        started = clock.now
    }

    public func update(done: Int, total: Int) {
        guard isTerminal, total > 0 else { return }
        let elapsed = clock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let rate = seconds > 0 ? Double(done) / seconds : 0
        let eta = rate > 0 ? LibraryText.duration(Double(total - done) / rate) : "?"
        let width = 30
        let filled = width * done / total
        let bar = String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled)
        let line = String(format: "\r%@ [%@] %d/%d files  %.0f files/s  ETA %@ ", label, bar, done, total, rate, eta)
        StandardStream.error.write(line)
        drawn = true
    }

    public func finish() {
        if drawn { StandardStream.error.write("\r\u{1B}[K") }
    }
}
