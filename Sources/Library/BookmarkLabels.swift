import Foundation

/// The two line formats that carry only a time and a text: Audacity's label track and the
/// mp4chaps-style `chapters.txt` the importer reads (`ChapterSidecars.chapterLine`). Neither can
/// hold a tab or a line break in its text: they become spaces.
enum BookmarkLabels {
    /// Audacity's label track: `start<TAB>end<TAB>label`, seconds with six decimals, a point
    /// label (start = end). The times are the book's: Audacity given a book of many files would
    /// have them joined end to end, in the book's order.
    static func writeAudacity(_ entries: [BookmarkEntry]) -> String {
        entries.compactMap { entry in
            entry.bookSeconds.map { seconds in
                let time = ExportTime.seconds(seconds)
                return "\(time)\t\(time)\t\(oneLine(entry.note ?? ""))\n"
            }
        }.joined()
    }

    static func readAudacity(_ text: String) -> ReadBookmarks {
        var result = ReadBookmarks()
        for (index, line) in lines(text) {
            // A spectral label's frequency line ("\tlow\thigh"), which Audacity writes after its label.
            if line.hasPrefix("\\") { continue }
            let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count >= 2, let start = Double(fields[0].trimmingCharacters(in: .whitespaces)), start.isFinite, start >= 0 else {
                result.refuse(line: index, "not a label (start<TAB>end<TAB>label, in seconds)")
                continue
            }
            let label = fields.count > 2 ? String(fields[2]) : ""
            result.add(BookmarkEntry(bookSeconds: start, note: label.isEmpty ? nil : label), line: index)
        }
        return result
    }

    /// A chapter a bookmark: `00:06:12.300 the note` (a bookmark without a note: `Bookmark N`,
    /// which reads back as no note). Milliseconds, as mp4chaps writes them.
    static func writeChapters(_ entries: [BookmarkEntry]) -> String {
        entries.enumerated().compactMap { index, entry in
            entry.bookSeconds.map { seconds in
                let note = oneLine(entry.note ?? "").trimmingCharacters(in: .whitespaces)
                let title = note.isEmpty ? placeholder(entry.number ?? String(index + 1)) : note
                return "\(clock(seconds)) \(title)\n"
            }
        }.joined()
    }

    static func readChapters(_ text: String) -> ReadBookmarks {
        var result = ReadBookmarks()
        result.resolution = 0.0005
        for (index, line) in lines(text) {
            guard let chapter = ChapterSidecars.chapterLine(line) else {
                result.refuse(line: index, "not a chapter line (00:00:00.000 Title)")
                continue
            }
            let isPlaceholder = chapter.title.wholeMatch(of: /Bookmark a?\d+/) != nil
            result.add(BookmarkEntry(bookSeconds: chapter.startSeconds, note: isPlaceholder ? nil : chapter.title), line: index)
        }
        return result
    }

    /// "Bookmark 3": a chapter's title for a bookmark without a note.
    private static func placeholder(_ number: String) -> String { "Bookmark \(number)" }

    /// "01:02:03.250": hours always, as mp4chaps writes them.
    static func clock(_ seconds: Double) -> String {
        let millis = Int64((max(0, seconds) * 1000).rounded())
        return String(format: "%02lld:%02lld:%02lld.%03lld", millis / 3_600_000, millis / 60000 % 60, millis / 1000 % 60, millis % 1000)
    }

    /// A text on one line: tabs and every line break (CR, LF, NEL, LS, PS, VT, FF) become spaces.
    static func oneLine(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            scalar == "\t" || Character(scalar).isNewline ? " " : scalar
        }))
    }

    /// The lines with text, numbered from 1 (a CRLF file's CR dropped).
    private static func lines(_ text: String) -> [(Int, String)] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            let line = line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
            return line.trimmingCharacters(in: .whitespaces).isEmpty ? nil : (index + 1, line)
        }
    }
}
