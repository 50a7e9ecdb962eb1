public import Foundation

/// Tags for `Fixtures.mp3`, written by lame as ID3v2 (and ID3v1 unless `id3v1` is false).
public struct ID3Options: Sendable, Hashable, CustomStringConvertible {
    public var title: String?
    public var artist: String?
    public var album: String?
    public var year: String?
    /// "3" or "3/12" (lame's `--tn`).
    public var track: String?
    /// A genre name or ID3v1 number; lame stores unknown names as text in ID3v2 only.
    public var genre: String?
    public var comment: String?
    /// An image file embedded as an APIC frame (lame's `--ti`), e.g. `Fixtures.coverJPEG()`.
    public var cover: URL?
    /// Also append an ID3v1 tag at the end of the file, as lame does by default.
    public var id3v1: Bool

    public init(
        title: String? = nil, artist: String? = nil, album: String? = nil, year: String? = nil,
        track: String? = nil, genre: String? = nil, comment: String? = nil, cover: URL? = nil,
        id3v1: Bool = true
    ) {
        self.title = title
        self.artist = artist
        self.album = album
        self.year = year
        self.track = track
        self.genre = genre
        self.comment = comment
        self.cover = cover
        self.id3v1 = id3v1
    }

    /// Stable across processes; used to name the fixture file.
    public var description: String {
        let fields = [("tt", title), ("ta", artist), ("tl", album), ("ty", year), ("tn", track), ("tg", genre), ("tc", comment), ("ti", cover?.path)]
        return fields.compactMap { key, value in value.map { "\(key)=\($0)" } }.joined(separator: "|") + "|v1=\(id3v1)"
    }

    /// lame's command-line flags for these tags. `--add-id3v2` always, so tests can rely on an
    /// ID3v2 tag even when everything would fit in ID3v1.
    var lameArguments: [String] {
        var arguments = ["--add-id3v2"]
        if !id3v1 { arguments.append("--id3v2-only") }
        let fields = [("--tt", title), ("--ta", artist), ("--tl", album), ("--ty", year), ("--tn", track), ("--tg", genre), ("--tc", comment), ("--ti", cover?.path)]
        for case let (flag, value?) in fields { arguments += [flag, value] }
        return arguments
    }
}
