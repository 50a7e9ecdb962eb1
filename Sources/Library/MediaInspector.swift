/// Reads what the library needs to know about an audio file. The library knows books, not
/// decoders: the program implements this with its plugin registry, so any decoder present
/// (MP3, Opus, M4B once its plugin exists) can be imported.
public protocol MediaInspector: Sendable {
    /// Throws an error whose description is one line naming the reason (the importer adds the path).
    func inspect(path: String) throws -> MediaDescription
}

/// Tags, length and chapters of one audio file.
public struct MediaDescription: Sendable, Equatable {
    public var title: String?
    public var artist: String?
    public var album: String?
    public var albumArtist: String?
    public var composer: String?
    public var narrator: String?
    public var genre: String?
    public var year: Int?
    public var trackNumber: Int?
    public var trackCount: Int?
    public var discNumber: Int?
    public var discCount: Int?
    public var sampleRate: Int
    /// Exact length in frames; nil when the stream does not say.
    public var durationFrames: Int64?
    public var chapters: [ChapterMark]
    public var hasCover: Bool
    /// Problems the decoder reported while opening the file that did not stop it (a file
    /// truncated against its own header), one line each, without the file's name.
    public var warnings: [String] = []

    public init(sampleRate: Int, durationFrames: Int64?) {
        self.sampleRate = sampleRate
        self.durationFrames = durationFrames
        chapters = []
        hasCover = false
    }

    /// "3", "3/12", " 03 of 12" -> (3, 12): the number and total forms tags use for track and disc.
    public static func numberAndTotal(_ text: String?) -> (Int?, Int?) {
        guard let text else { return (nil, nil) }
        // Spaces trimmed by hand: Foundation's trimmingCharacters took 3 % of an import.
        let parts = text.split(separator: "/").map { $0.drop(while: { $0 == " " || $0 == "\t" }) }
        func leadingInt(_ s: Substring?) -> Int? { s.flatMap { Int($0.prefix { $0.isNumber && $0.isASCII }) } }
        return (leadingInt(parts.first), parts.count > 1 ? leadingInt(parts[1]) : nil)
    }

    /// The first 4-digit year in a date tag ("2003", "2003-05-01").
    public static func year(_ text: String?) -> Int? {
        guard let text else { return nil }
        let digits = text.prefix { $0.isNumber && $0.isASCII }
        return digits.count == 4 ? Int(digits) : nil
    }
}
