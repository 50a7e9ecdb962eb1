public import Foundation

extension Fixtures {
    /// A copy of `file` with chapters: each runs from its start to the next one's, the last to
    /// `totalSeconds`.
    ///
    /// - MP3: ID3v2.3 CHAP frames (plus a CTOC), written by ffmpeg with the audio frames copied
    ///   untouched; the original tags are kept. ffmpeg writes its own Xing/LAME frame when muxing
    ///   MP3, which would give a `xingHeader: false` fixture the header it must not have (and make
    ///   ffmpeg trim 529 more frames), so the Xing frame is only written when the source had one.
    /// - Opus: made again by opusenc from the same recipe with CHAPTERnnn comments (ffmpeg's Ogg
    ///   muxer does not write chapters for Opus), so `file` must come from `Fixtures.opus`.
    public static func withChapters(_ file: URL, chapters: [FixtureChapter], totalSeconds: Double) throws -> URL {
        switch file.pathExtension.lowercased() {
        case "mp3":
            return try mp3WithChapters(file, chapters: chapters, totalSeconds: totalSeconds)
        case "opus":
            guard var recipe = cache.opusRecipe(for: file) else { throw FixtureError.notMadeByFixtures(file) }
            recipe.chapters = chapters.map { OpusRecipe.Chapter(startSeconds: $0.startSeconds, title: $0.title) }
            return try opus(recipe)
        default:
            throw FixtureError.unsupportedFormat(file)
        }
    }

    private static func mp3WithChapters(_ file: URL, chapters: [FixtureChapter], totalSeconds: Double) throws -> URL {
        let description = chapters.map { "\($0.startSeconds)=\($0.title)" }.joined(separator: "\u{1}") + "|\(totalSeconds)|\(file.path)"
        let name = "chapters/\(file.deletingPathExtension().lastPathComponent)-\(stableDigest(description)).mp3"
        return try cache.file(named: name) { url in
            let metadata = url.deletingLastPathComponent().appending(path: ".meta-\(UUID().uuidString).txt")
            defer { try? FileManager.default.removeItem(at: metadata) }
            try Data(ffmetadata(chapters: chapters, totalSeconds: totalSeconds).utf8).write(to: metadata)

            let head = try Data(contentsOf: file)
            var arguments = ["-v", "error", "-y", "-i", file.path, "-i", metadata.path]
            arguments += ["-map", "0", "-map_metadata", "0", "-map_chapters", "1", "-c", "copy", "-id3v2_version", "3"]
            arguments += ["-write_xing", MP3Layout.hasXingFrame(head) ? "1" : "0"]
            arguments += ["-write_id3v1", MP3Layout.hasID3v1(head) ? "1" : "0"]
            try Command.run("ffmpeg", arguments + [url.path]).requireSuccess()
        }
    }

    /// An ffmetadata file with one [CHAPTER] section per chapter, in milliseconds.
    static func ffmetadata(chapters: [FixtureChapter], totalSeconds: Double) -> String {
        let milliseconds = { (seconds: Double) in Int((seconds * 1000).rounded()) }
        var text = ";FFMETADATA1\n"
        for (index, chapter) in chapters.enumerated() {
            let end = index + 1 < chapters.count ? chapters[index + 1].startSeconds : totalSeconds
            text += "[CHAPTER]\nTIMEBASE=1/1000\nSTART=\(milliseconds(chapter.startSeconds))\nEND=\(milliseconds(end))\n"
            text += "title=\(escapedMetadata(chapter.title))\n"
        }
        return text
    }

    /// ffmetadata gives '=', ';', '#', '\' and newline special meaning; a backslash escapes them.
    private static func escapedMetadata(_ value: String) -> String {
        var escaped = ""
        for character in value {
            if "=;#\\\n".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}

/// Where the parts of an MP3 file are, as far as fixtures need to know.
enum MP3Layout {
    /// The size of a leading ID3v2 tag (header, syncsafe size, optional footer), or 0.
    static func id3v2Size(_ data: Data) -> Int {
        let bytes = [UInt8](data.prefix(10))
        guard bytes.count == 10, bytes[0..<3].elementsEqual("ID3".utf8) else { return 0 }
        let size = bytes[6..<10].reduce(0) { $0 << 7 | Int($1 & 0x7F) }
        return 10 + size + (bytes[5] & 0x10 != 0 ? 10 : 0)
    }

    /// Whether the first MPEG frame is a Xing/Info header (the tag sits within its first ~40 bytes
    /// after the side information).
    static func hasXingFrame(_ data: Data) -> Bool {
        let start = data.startIndex + id3v2Size(data)
        let frame = [UInt8](data[start..<min(start + 64, data.endIndex)])
        return frame.firstRange(of: Array("Xing".utf8)) != nil || frame.firstRange(of: Array("Info".utf8)) != nil
    }

    static func hasID3v1(_ data: Data) -> Bool {
        data.count >= 128 && data[data.endIndex - 128..<data.endIndex - 125].elementsEqual("TAG".utf8)
    }
}
