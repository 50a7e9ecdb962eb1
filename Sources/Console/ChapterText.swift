import Player
import PlayerCore

/// How `chapters` reads: a line saying how many, then one per chapter with its number, where
/// it starts in the book, its length and its title, the chapter you are in marked with ▶.
enum ChapterText {
    static func lines(book: String, _ chapters: [ChapterListing], current: Int?) -> [String] {
        guard !chapters.isEmpty else {
            return ["\(book) has no chapters (one file without chapter marks): use seek or +N/-N"]
        }
        let perFile = chapters.allSatisfy(\.isWholeItem) ? " (one per file)" : ""
        var lines = ["\(book): \(LibraryText.counted(chapters.count, "chapter"))\(perFile)"]
        let numberWidth = String(chapters.count).count
        let starts = chapters.map { Timecode.format(seconds: $0.start) }
        let startWidth = starts.map(\.count).max() ?? 0
        for (index, chapter) in chapters.enumerated() {
            let mark = index == current ? "▶" : " "
            let number = String(index + 1)
            let start = starts[index]
            lines.append("\(mark) \(String(repeating: " ", count: numberWidth - number.count))\(number)  "
                + "\(String(repeating: " ", count: startWidth - start.count))\(start)  "
                + "\(LibraryText.duration(chapter.length).leftPadded(to: 8))  \(chapter.title)")
        }
        return lines
    }
}
