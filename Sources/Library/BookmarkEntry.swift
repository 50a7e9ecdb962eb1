public import Foundation

/// One bookmark as an export file carries it: where it is in the book and in its file, what it
/// is called there, and its note. Read back, any field may be missing (a label track has only
/// the book's time and a label): the import places a bookmark by its file and time in the file
/// when it has them, else by its time in the book.
public struct BookmarkEntry: Sendable, Equatable {
    /// Its number in the book's list when exported ("3", "a2"); not used to place it.
    public var number: String?
    /// Seconds into the book (the items laid end to end).
    public var bookSeconds: Double?
    /// The file's name, without its folders.
    public var file: String?
    /// Seconds into that file.
    public var fileSeconds: Double?
    public var chapter: String?
    /// `BookmarkKind`'s raw value as exported; an import makes user bookmarks whatever it says.
    public var kind: String?
    public var note: String?
    public var createdAt: Date?

    public init(number: String? = nil, bookSeconds: Double? = nil, file: String? = nil, fileSeconds: Double? = nil,
                chapter: String? = nil, kind: String? = nil, note: String? = nil, createdAt: Date? = nil) {
        self.number = number
        self.bookSeconds = bookSeconds
        self.file = file
        self.fileSeconds = fileSeconds
        self.chapter = chapter
        self.kind = kind
        self.note = note
        self.createdAt = createdAt
    }
}

/// What reading a bookmark file found: the entries, each with the line (or, in JSON, the entry
/// number) it came from, and the lines that could not be read, each said once.
public struct ReadBookmarks: Sendable, Equatable {
    public struct Line: Sendable, Equatable {
        /// From 1: the line of the file (the entry of a JSON array).
        public let number: Int
        public let entry: BookmarkEntry
    }

    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        public let line: Int
        public let reason: String
        /// "line 4: '1:x' is not a time", "entry 4: ..." in JSON.
        public let isEntry: Bool

        public var description: String { "\(isEntry ? "entry" : "line") \(line): \(reason)" }
    }

    public var lines: [Line] = []
    public var problems: [Problem] = []
    /// Seconds either side within which the format places a bookmark: a millisecond in a
    /// chapters.txt, a microsecond in the others. Two bookmarks closer than this are one place.
    public var resolution: Double = 1e-6
    /// What a number names: a line of the file, or an entry of a JSON array.
    public var countsEntries = false

    /// "line 4: REASON" ("entry 4: ..." in JSON).
    public func problem(at line: Int, _ reason: String) -> String { "\(countsEntries ? "entry" : "line") \(line): \(reason)" }

    mutating func add(_ entry: BookmarkEntry, line: Int) { lines.append(Line(number: line, entry: entry)) }
    mutating func refuse(line: Int, _ reason: String, isEntry: Bool = false) {
        problems.append(Problem(line: line, reason: reason, isEntry: isEntry))
    }
}

/// Seconds as the export files write them for people: "1:02:03.250", "4:05.000".
enum ExportTime {
    static func text(_ seconds: Double) -> String {
        let millis = Int64((max(0, seconds) * 1000).rounded())
        let (h, m, s, ms) = (millis / 3_600_000, millis / 60000 % 60, millis / 1000 % 60, millis % 1000)
        let clock = h > 0 ? "\(h):" + pad(m, 2) + ":" + pad(s, 2) : "\(m):" + pad(s, 2)
        return clock + "." + pad(ms, 3)
    }

    /// Seconds with six decimals ("372.300000"): a microsecond is under a frame at any rate up to
    /// 500 kHz, so a bookmark comes back to its frame.
    static func seconds(_ seconds: Double) -> String { String(format: "%.6f", seconds) }

    /// "1:02:03.25", "62:03", "3723.5" or "3723": the forms `text` and `seconds` write, and what a
    /// person might type instead. Nil for anything else (negative, not finite, "1:x").
    static func parse(_ text: String) -> Double? {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ":" || $0 == ".") }) else { return nil }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 3 else { return nil }
        var total = 0.0
        for (index, part) in parts.enumerated() {
            let isLast = index == parts.count - 1
            guard !part.isEmpty, isLast || !part.contains("."), let value = Double(part), value.isFinite else { return nil }
            if index > 0, value >= 60 { return nil }
            total = total * 60 + value
        }
        return total
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

/// Dates in the export files: ISO 8601 in local time with its offset (2026-11-28T05:00:15+01:00),
/// as `abplayer`'s JSON for scripts writes them.
enum ExportDate {
    static func text(_ date: Date) -> String { formatter().string(from: date) }

    static func parse(_ text: String) -> Date? {
        formatter().date(from: text.trimmingCharacters(in: .whitespaces))
    }

    // A formatter per use: ISO8601DateFormatter is not Sendable, and dates are few.
    private static func formatter() -> ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = .current
        return formatter
    }
}
