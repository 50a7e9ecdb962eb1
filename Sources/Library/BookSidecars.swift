import Foundation

/// What the files beside a book's audio say about it, as Audiobookshelf reads them: `metadata.json`
/// (its own export), `desc.txt`, `reader.txt` (the narrator) and a cover image.
struct BookSidecars: Sendable, Equatable {
    var metadata: AudiobookshelfMetadata?
    var description: String?
    var narrator: String?
    var coverPath: String?

    /// Cover file names in the order they are preferred.
    static let coverNames = ["cover.jpg", "cover.jpeg", "cover.png", "folder.jpg", "folder.jpeg", "folder.png"]

    /// Reads the sidecars of `folder`; a missing or unreadable file is simply absent, a
    /// `metadata.json` that does not parse is ignored (the tags still name the book).
    init(folder: String) {
        let names = Set((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
        // Case-insensitively: "Cover.JPG", "Desc.txt" are common.
        let byLowercase = Dictionary(names.map { ($0.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        func path(_ name: String) -> String? { byLowercase[name].map { folder + "/" + $0 } }
        func text(_ name: String) -> String? {
            guard let path = path(name), let data = FileManager.default.contents(atPath: path) else { return nil }
            let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return text.isEmpty ? nil : text
        }
        if let path = path("metadata.json"), let data = FileManager.default.contents(atPath: path) {
            metadata = try? JSONDecoder().decode(AudiobookshelfMetadata.self, from: data)
        } else if let path = path("metadata.abs"), let data = FileManager.default.contents(atPath: path) {
            metadata = AudiobookshelfMetadata(abs: String(decoding: data, as: UTF8.self))
        }
        description = text("desc.txt")
        narrator = text("reader.txt")
        coverPath = Self.coverNames.lazy.compactMap(path).first
    }

    init() {}
}

/// Audiobookshelf's `metadata.json` (the keys this player has a place for).
struct AudiobookshelfMetadata: Decodable, Sendable, Equatable {
    struct Chapter: Decodable, Sendable, Equatable {
        var start: Double
        var end: Double?
        var title: String
    }

    var title: String?
    var subtitle: String?
    var authors: [String]?
    var narrators: [String]?
    /// "Name #2", or just "Name".
    var series: [String]?
    var publishedYear: Int?
    var description: String?
    var chapters: [Chapter]?

    enum CodingKeys: String, CodingKey {
        case title, subtitle, authors, narrators, series, publishedYear, description, chapters
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try? container.decodeIfPresent(String.self, forKey: .title)
        subtitle = try? container.decodeIfPresent(String.self, forKey: .subtitle)
        authors = try? container.decodeIfPresent([String].self, forKey: .authors)
        narrators = try? container.decodeIfPresent([String].self, forKey: .narrators)
        series = try? container.decodeIfPresent([String].self, forKey: .series)
        description = try? container.decodeIfPresent(String.self, forKey: .description)
        chapters = try? container.decodeIfPresent([Chapter].self, forKey: .chapters)
        // Audiobookshelf writes the year as a string ("1987"); people writing it by hand, a number.
        publishedYear = (try? container.decodeIfPresent(Int.self, forKey: .publishedYear))
            ?? MediaDescription.year((try? container.decodeIfPresent(String.self, forKey: .publishedYear)) ?? nil)
    }

    /// Audiobookshelf's older `metadata.abs`: `key=value` lines (lists comma-separated), then a
    /// `[DESCRIPTION]` section of text and `[CHAPTER]` sections of `start=`, `end=`, `title=`.
    /// Nil when it is not one (no `;ABMETADATA` first line).
    init?(abs text: String) {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        guard lines.first?.hasPrefix(";ABMETADATA") == true else { return nil }
        var section = "", descriptionLines: [String] = []
        var chapters: [Chapter] = []
        func list(_ value: String) -> [String]? {
            let items = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            return items.isEmpty ? nil : items
        }
        for line in lines.dropFirst() where !line.hasPrefix("#") {
            if line.hasPrefix("["), line.hasSuffix("]") {
                section = line.uppercased()
                if section == "[CHAPTER]" { chapters.append(Chapter(start: 0, end: nil, title: "")) }
                continue
            }
            if section == "[DESCRIPTION]" {
                descriptionLines.append(line)
                continue
            }
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = String(line[..<equals]).trimmingCharacters(in: .whitespaces)
            let value = String(line[line.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
            if section == "[CHAPTER]", !chapters.isEmpty {
                switch key {
                case "start": chapters[chapters.count - 1].start = Double(value) ?? 0
                case "end": chapters[chapters.count - 1].end = Double(value)
                case "title": chapters[chapters.count - 1].title = value
                default: break
                }
                continue
            }
            guard !value.isEmpty else { continue }
            switch key {
            case "title": title = value
            case "subtitle": subtitle = value
            case "authors": authors = list(value)
            case "narrators": narrators = list(value)
            case "series": series = list(value)
            case "publishedYear": publishedYear = MediaDescription.year(value)
            default: break
            }
        }
        let text = descriptionLines.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        description = text.isEmpty ? nil : text
        self.chapters = chapters.isEmpty ? nil : chapters
    }

    /// The first series as (name, number): "Discworld #2" -> ("Discworld", 2).
    var firstSeries: (name: String, number: Double?)? {
        guard let first = series?.first?.trimmingCharacters(in: .whitespaces), !first.isEmpty else { return nil }
        if let match = first.wholeMatch(of: /(?<name>.+?)\s*#\s*(?<number>\d+(?:\.\d+)?)/) {
            return (String(match.name), Double(match.number))
        }
        return (first, nil)
    }
}
