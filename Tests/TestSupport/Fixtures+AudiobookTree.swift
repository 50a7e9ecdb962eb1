public import Foundation

/// One file of `Fixtures.audiobookTree()`: where it is and which ID3 tags lame wrote into it.
public struct TreeFile: Sendable {
    public let path: String
    public var title: String?
    public var album: String?
    public var artist: String?
    public var albumArtist: String?
    public var composer: String?
    public var narrator: String?
    /// "3" or "3/12".
    public var track: String?
    public var disc: String?

    public init(_ path: String, title: String? = nil, album: String? = nil, artist: String? = nil, albumArtist: String? = nil,
                composer: String? = nil, narrator: String? = nil, track: String? = nil, disc: String? = nil) {
        self.path = path
        self.title = title
        self.album = album
        self.artist = artist
        self.albumArtist = albumArtist
        self.composer = composer
        self.narrator = narrator
        self.track = track
        self.disc = disc
    }

    var lameArguments: [String] {
        var arguments = ["--add-id3v2", "--id3v2-only"]
        for case let (flag, value?) in [("--tt", title), ("--tl", album), ("--ta", artist), ("--tn", track)] {
            arguments += [flag, value]
        }
        for case let (frame, value?) in [("TPOS", disc), ("TPE2", albumArtist), ("TCOM", composer), ("TXXX=NARRATOR", narrator)] {
            arguments += ["--tv", "\(frame)=\(value)"]
        }
        return arguments
    }
}

extension Fixtures {
    /// Seconds of audio in each file of the audiobook tree.
    public static let audiobookTreeFileSeconds = 1

    /// A folder of audiobooks with the names and tags that break players: apostrophes and quotes,
    /// Cyrillic, CJK, emoji, "Chapter 9" vs "Chapter 10", CD1/CD2 disc folders, track tags out of
    /// order with the names, broken (duplicate, gapped) track tags, no album tag, and a file that
    /// is not audio. Each file is one second of the time-coded signal at 22.05 kHz mono, encoded
    /// by lame with its own tags (so every file has its own content fingerprint).
    ///
    /// Shared by the tests in a process: copy it before moving or changing anything in it.
    public static func audiobookTree() throws -> URL {
        let name = "audiobook-tree-" + stableDigest(audiobookTreeFiles.map { $0.path + $0.lameArguments.joined() }.joined())
        return try cache.file(named: name) { root in
            let source = try timeCodedWAV(seconds: audiobookTreeFileSeconds, rate: 22050, channels: 1)
            // VBR: lame writes a LAME tag, so the decoder knows the exact length. (A low-rate CBR file
            // from lame decodes 1566 frames long here: its Info tag's delay and padding go unused.)
            for file in audiobookTreeFiles {
                let url = root.appending(path: file.path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Command.run("lame", ["--quiet", "--nohist", "-V", "9"] + file.lameArguments + [source.path, url.path])
                    .requireSuccess()
            }
            try Data("not audio at all\n".utf8).write(to: root.appending(path: "Untagged Book/garbage.mp3"))
            try Data("cover art lives here\n".utf8).write(to: root.appending(path: "Untagged Book/notes.txt"))
        }
    }

    /// The audio files of `audiobookTree()` (relative paths and tags).
    public static let audiobookTreeFiles: [TreeFile] = [
        // Disc folders; the names alone would put "Chapter 10" after "Chapter 9" only if read naturally.
        TreeFile("Tolstoy's \"War & Peace\"/CD2/Chapter 1.mp3", title: "II-1", album: "War & Peace", artist: "Лев Толстой",
                 albumArtist: "Leo Tolstoy", narrator: "Nobody's Voice", track: "1/2", disc: "2/2"),
        TreeFile("Tolstoy's \"War & Peace\"/CD2/Chapter 2.mp3", title: "II-2", album: "War & Peace", artist: "Лев Толстой",
                 albumArtist: "Leo Tolstoy", narrator: "Nobody's Voice", track: "2/2", disc: "2/2"),
        TreeFile("Tolstoy's \"War & Peace\"/CD1/Chapter 10.mp3", title: "I-10", album: "War & Peace", artist: "Лев Толстой",
                 albumArtist: "Leo Tolstoy", narrator: "Nobody's Voice", track: "2/2", disc: "1/2"),
        TreeFile("Tolstoy's \"War & Peace\"/CD1/Chapter 9.mp3", title: "I-9", album: "War & Peace", artist: "Лев Толстой",
                 albumArtist: "Leo Tolstoy", narrator: "Nobody's Voice", track: "1/2", disc: "1/2"),
        // Clean track tags that disagree with the names: the tags win.
        TreeFile("Мастер и Маргарита/01 Глава.mp3", title: "Глава третья", album: "Мастер и Маргарита", artist: "Михаил Булгаков", track: "3"),
        TreeFile("Мастер и Маргарита/02 Глава.mp3", title: "Глава первая", album: "Мастер и Маргарита", artist: "Михаил Булгаков", track: "1"),
        TreeFile("Мастер и Маргарита/03 Глава.mp3", title: "Глава вторая", album: "Мастер и Маргарита", artist: "Михаил Булгаков", track: "2"),
        // Every file tagged track 1: the tags are broken, natural name order wins.
        TreeFile("吾輩は猫である 🐱/Chapter 10.mp3", title: "十", album: "吾輩は猫である 🐱", artist: "夏目漱石", composer: "作曲家", track: "1"),
        TreeFile("吾輩は猫である 🐱/Chapter 9.mp3", title: "九", album: "吾輩は猫である 🐱", artist: "夏目漱石", composer: "作曲家", track: "1"),
        TreeFile("吾輩は猫である 🐱/Chapter 1.mp3", title: "一", album: "吾輩は猫である 🐱", artist: "夏目漱石", composer: "作曲家", track: "1"),
        // No album tag (the folder names the book); track tags with a gap: names win.
        TreeFile("Untagged Book/part 10.mp3", track: "1"),
        TreeFile("Untagged Book/Part 2 - b.mp3", track: "5"),
        TreeFile("Untagged Book/Part 1.mp3", track: "2"),
    ]
}
