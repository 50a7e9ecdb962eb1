public import Foundation

/// A book's bookmarks in a file other programs read: CSV and JSON with every field, Audacity's
/// label track, and a `chapters.txt` the importer reads as chapters. `bookmarks export` writes
/// them, `bookmarks import` reads them back.
public enum BookmarkFileFormat: String, CaseIterable, Sendable {
    case csv, json, audacity, chapters

    /// "csv, json, audacity or chapters".
    public static let names = allCases.dropLast().map(\.rawValue).joined(separator: ", ") + " or " + allCases.last!.rawValue

    /// What a file's name says it holds: `.csv`, `.json`, `chapters.txt`, or another `.txt`
    /// (Audacity names its label tracks so); nil when the name does not say.
    public init?(fileName: String) {
        let name = (fileName as NSString).lastPathComponent.lowercased()
        if name.hasSuffix(".csv") { self = .csv }
        else if name.hasSuffix(".json") { self = .json }
        else if name.hasSuffix("chapters.txt") { self = .chapters }
        else if name.hasSuffix(".txt") || name.hasSuffix(".labels") { self = .audacity }
        else { return nil }
    }

    /// What `text` looks like it holds, from its first line with anything on it.
    init?(content text: String) {
        let trimmed = text.drop { $0.isWhitespace }
        if trimmed.first == "[" { self = .json; return }
        guard let first = trimmed.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).first else { return nil }
        let line = String(first)
        if line.lowercased().hasPrefix("number,") || BookmarkCSV.header.allSatisfy({ line.lowercased().contains($0) }) {
            self = .csv
        } else if line.wholeMatch(of: /\s*\d+(\.\d+)?\t\d+(\.\d+)?(\t.*)?/) != nil {
            self = .audacity
        } else if ChapterSidecars.chapterLine(line) != nil {
            self = .chapters
        } else {
            return nil
        }
    }
}

public enum BookmarkFile {
    /// The longest file `read` takes: a listener's bookmarks are kilobytes.
    public static let sizeLimit = 16 << 20

    public static func text(_ entries: [BookmarkEntry], as format: BookmarkFileFormat) -> String {
        switch format {
        case .csv: BookmarkCSV.write(entries)
        case .json: BookmarkJSON.write(entries)
        case .audacity: BookmarkLabels.writeAudacity(entries)
        case .chapters: BookmarkLabels.writeChapters(entries)
        }
    }

    /// How many of `entries` a file of `format` leaves out: an Audacity label track or a
    /// chapters.txt holds only the time in the book, so a bookmark whose time in the book is not
    /// known (a file before it was never read to its end) cannot be written there.
    public static func leftOut(_ entries: [BookmarkEntry], as format: BookmarkFileFormat) -> Int {
        format == .audacity || format == .chapters ? entries.count(where: { $0.bookSeconds == nil }) : 0
    }

    /// The bookmarks in `text`, read as `format`, or as what its name (`name`) or its content
    /// says it is. Fails with one line when it is no bookmark file.
    public static func read(_ text: String, format: BookmarkFileFormat?, name: String) throws(LibraryError) -> ReadBookmarks {
        let format = format ?? BookmarkFileFormat(fileName: name).flatMap { named in
            // A `.txt` may be either line format: the content decides between them.
            named == .audacity ? BookmarkFileFormat(content: text) ?? named : named
        } ?? BookmarkFileFormat(content: text)
        guard let format else {
            throw LibraryError.invalid("\(name) is not a bookmark file: name its format with --format \(BookmarkFileFormat.names)")
        }
        let read: ReadBookmarks
        switch format {
        case .csv: read = BookmarkCSV.read(text)
        case .json:
            guard let json = BookmarkJSON.read(text) else {
                throw LibraryError.invalid("\(name) is not a JSON array of bookmarks (as 'bookmarks export --format json' writes)")
            }
            read = json
        case .audacity: read = BookmarkLabels.readAudacity(text)
        case .chapters: read = BookmarkLabels.readChapters(text)
        }
        // Not one line read: the file is not in that format (a line a complaint would bury what
        // is wrong). A file with no lines at all is an export of a book without bookmarks.
        guard !read.lines.isEmpty || read.problems.isEmpty else {
            throw LibraryError.invalid("\(name): not one line of it is a bookmark in the \(format.rawValue) format (\(read.problems[0])): "
                + "name its format with --format \(BookmarkFileFormat.names)")
        }
        return read
    }

    /// Writes `text` to `path`, whole or not at all (written beside it, then renamed); never over
    /// `library`'s own files (`LibraryFiles`: `bookmarks export Dune library.sqlite` would have
    /// replaced the library with a CSV).
    public static func write(_ text: String, toFile path: String, besides library: LibraryDatabase) throws(LibraryError) {
        if library.state.ownFiles?.contains(path) == true {
            throw LibraryError.invalid("\(path) is this library's own database file: name a new file for the bookmarks")
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw LibraryError.invalid("\(path): cannot write it (\(error.localizedDescription))")
        }
    }

    /// The text of the regular file at `path`, at most `sizeLimit` bytes; never one of
    /// `library`'s own files, whose reading would drop SQLite's locks in this process.
    public static func contents(ofFile path: String, besides library: LibraryDatabase) throws(LibraryError) -> String {
        if library.state.ownFiles?.contains(path) == true {
            throw LibraryError.invalid("\(path) is this library's own database file, not a bookmark file")
        }
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw LibraryError.invalid("\(path): cannot read it (\(String(cString: strerror(errno))))")
        }
        guard status.st_mode & S_IFMT == S_IFREG else { throw LibraryError.invalid("\(path) is not a regular file") }
        guard status.st_size <= sizeLimit else {
            throw LibraryError.invalid("\(path) is \(status.st_size) bytes: bookmark files are read up to \(sizeLimit >> 20) MiB")
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw LibraryError.invalid("\(path): cannot read it") }
        return String(decoding: data, as: UTF8.self)
    }
}
