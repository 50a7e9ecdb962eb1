import Foundation

/// Bookmarks as a JSON array of objects, one a bookmark: its times in seconds (for programs) and
/// as a clock shows them (for people), its file, chapter, kind, note, and when it was made (ISO
/// 8601, local time with its offset).
enum BookmarkJSON {
    /// The fields of one object. Every one is optional in a file read: what places a bookmark is
    /// checked when it is placed.
    struct Object: Codable {
        var number: String?
        var bookSeconds: Double?
        var bookTime: String?
        var file: String?
        var fileSeconds: Double?
        var fileTime: String?
        var chapter: String?
        var kind: String?
        var note: String?
        var created: String?
    }

    static func write(_ entries: [BookmarkEntry]) -> String {
        let objects = entries.map { entry in
            Object(number: entry.number, bookSeconds: entry.bookSeconds.map(rounded), bookTime: entry.bookSeconds.map(ExportTime.text),
                   file: entry.file, fileSeconds: entry.fileSeconds.map(rounded), fileTime: entry.fileSeconds.map(ExportTime.text),
                   chapter: entry.chapter, kind: entry.kind, note: entry.note, created: entry.createdAt.map(ExportDate.text))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(objects)) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// Six decimals, as the other formats write them (a frame is more than a microsecond).
    private static func rounded(_ seconds: Double) -> Double { (seconds * 1e6).rounded() / 1e6 }

    /// The objects of a JSON array; nil when `text` is not one (the file is then no bookmark file).
    static func read(_ text: String) -> ReadBookmarks? {
        // Each element alone, so one bad object is named and the rest still read.
        guard let elements = try? JSONDecoder().decode([Element].self, from: Data(text.utf8)) else { return nil }
        var result = ReadBookmarks()
        result.countsEntries = true
        for (index, element) in elements.enumerated() {
            let number = index + 1
            guard let object = element.object else {
                result.refuse(line: number, "not a bookmark object (\(element.problem ?? "wrong type"))", isEntry: true)
                continue
            }
            let bookSeconds = object.bookSeconds ?? object.bookTime.flatMap(ExportTime.parse)
            let fileSeconds = object.fileSeconds ?? object.fileTime.flatMap(ExportTime.parse)
            if let seconds = bookSeconds ?? fileSeconds, !(seconds.isFinite && seconds >= 0) {
                result.refuse(line: number, "\(seconds) is not a time", isEntry: true)
                continue
            }
            guard bookSeconds != nil || fileSeconds != nil && object.file != nil else {
                result.refuse(line: number, "no time: a bookmark needs bookSeconds (or bookTime), or file and fileSeconds", isEntry: true)
                continue
            }
            result.add(BookmarkEntry(number: object.number, bookSeconds: bookSeconds, file: object.file, fileSeconds: fileSeconds,
                                     chapter: object.chapter, kind: object.kind, note: object.note,
                                     createdAt: object.created.flatMap(ExportDate.parse)), line: number)
        }
        return result
    }

    /// One element of the array: an object, or why it is not one.
    private struct Element: Decodable {
        let object: Object?
        let problem: String?

        init(from decoder: any Decoder) throws {
            do {
                object = try Object(from: decoder)
                problem = nil
            } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context),
                    let DecodingError.dataCorrupted(context) {
                object = nil
                problem = context.codingPath.last.map { "'\($0.stringValue)': \(context.debugDescription)" } ?? context.debugDescription
            } catch {
                object = nil
                problem = "\(error)"
            }
        }
    }
}
