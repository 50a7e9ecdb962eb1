import Player
import PlayerCore

/// How `chapters` reads: a line saying how many, then one per chapter with its number, where
/// it starts in the book, its length and its title, the chapter you are in marked with ▶.
enum ChapterText {
    static func lines(book: String, _ chapters: [ChapterListing], current: Int?) -> [String] {
        guard !chapters.isEmpty else {
            return ["\(book) has no chapters (one file without chapter marks): use seek or +N/-N"]
        }
        let perFile = chapters.allSatisfy(\.isUsers) ? " (your chapters)" : chapters.allSatisfy(\.isWholeItem) ? " (one per file)" : ""
        var lines = ["\(book): \(LibraryText.counted(chapters.count, "chapter"))\(perFile)"]
        let numbers = chapters.indices.map { String($0 + 1) }
        let starts = chapters.map { Timecode.format(seconds: $0.start) }
        let lengths = chapters.map { LibraryText.duration($0.length) }
        let widths = [numbers, starts, lengths].map { $0.map(\.count).max() ?? 0 }
        for index in chapters.indices {
            let mark = index == current ? "▶" : " "
            let columns = zip([numbers[index], starts[index], lengths[index]], widths).map { text, width in
                String(repeating: " ", count: width - text.count) + text
            }
            lines.append("\(mark) \(columns.joined(separator: "  "))  \(chapters[index].title)")
        }
        return lines
    }
}
