import Foundation

/// What an Audiobookshelf-style book folder name says: "Vol 2 - 1987 - Title {Narrator}",
/// "Book 2 - Title", "2. Title", "#2 - Title", "(1987) Title", "1987 - Title".
///
/// The order of the parts is Audiobookshelf's (series number, then year, then the title, the
/// narrator in braces last), so a library laid out for it reads the same here.
public struct FolderBookName: Sendable, Equatable {
    public var title: String
    public var seriesNumber: Double?
    public var year: Int?
    public var narrator: String?

    public init(_ name: String) {
        var rest = Substring(name).trimmingCharacters(in: .whitespaces)[...]
        if let match = rest.wholeMatch(of: /(?<before>.*?)\s*\{(?<narrator>[^{}]+)\}/) {
            narrator = String(match.narrator).trimmingCharacters(in: .whitespaces)
            rest = match.before
        }
        // A keyword or '#' makes any number a series number ("Book 1984 - Title" is book 1984).
        if let match = rest.wholeMatch(of: /(?i)(?:vol(?:ume)?|book|bk)\.?\s*(?<number>\d+(?:\.\d+)?)\s*(?:-|–|:|\.)?\s+(?<title>.+)/)
            ?? rest.wholeMatch(of: /#(?<number>\d+(?:\.\d+)?)\s*(?:-|–|:|\.)?\s+(?<title>.+)/) {
            seriesNumber = Double(match.number)
            rest = match.title
        } else if let match = rest.wholeMatch(of: /(?<number>\d+(?:\.\d+)?)(?:\.\s+|\s+(?:-|–)\s+)(?<title>.+)/),
                  !Self.looksLikeYear(match.number) {
            seriesNumber = Double(match.number)
            rest = match.title
        }
        if let match = rest.wholeMatch(of: /\((?<year>\d{4})\)\s*(?:-|–)?\s*(?<title>.+)/)
            ?? rest.wholeMatch(of: /(?<year>\d{4})\s+(?:-|–)\s+(?<title>.+)/), Self.looksLikeYear(match.year) {
            year = Int(match.year)
            rest = match.title
        }
        let title = rest.trimmingCharacters(in: .whitespaces)
        self.title = title.isEmpty ? name : title
    }

    /// 4 digits from 1000 to 2999: "1984 - Title" is a year, "12 - Title" a series number.
    private static func looksLikeYear(_ digits: Substring) -> Bool {
        digits.count == 4 && digits.allSatisfy(\.isNumber) && (1000...2999).contains(Int(digits) ?? 0)
    }
}

/// How `import` reads the folders above the books.
public enum ImportLayout: String, Sendable, CaseIterable {
    /// Every folder with audio is a book; the folders above it mean nothing.
    case folders
    /// Audiobookshelf's convention under the folder imported: `Author/Title/`,
    /// `Author/Series/Title/`; authors and series become shelves, and book folder names give
    /// the series number, year and narrator (`FolderBookName`).
    case authorSeries = "author-series"
}

/// Where a book folder lies in an author-series tree.
struct BookLocation: Sendable, Equatable {
    var author: String?
    var series: String?
    var name: FolderBookName

    /// The name is the book file's (`Author/Series/Book 3 - Title.m4b`), not its folder's.
    var isNamedByFile = false

    /// `components`: the folders from the imported folder down to the book's (not including the
    /// imported folder). Deeper trees keep the last three: what sits above an author is not ours
    /// to interpret.
    init?(components: [String]) {
        guard let last = components.last else { return nil }
        name = FolderBookName(last)
        let above = components.dropLast().suffix(2)
        author = above.first
        series = above.count == 2 ? above.last : nil
    }

    /// A single-file book lying in an author's or a series' folder (`components` down to it).
    init?(container components: [String], file: String) {
        guard !components.isEmpty else { return nil }
        name = FolderBookName(((file as NSString).lastPathComponent as NSString).deletingPathExtension)
        isNamedByFile = true
        let above = components.suffix(2)
        author = above.first
        series = above.count == 2 ? above.last : nil
    }
}
