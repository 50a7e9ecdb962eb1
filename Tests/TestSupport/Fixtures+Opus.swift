public import Foundation

extension Fixtures {
    /// The time-coded signal encoded by opusenc at `bitrate` kbit/s.
    ///
    /// Opus always decodes at 48 kHz: a 44.1 kHz source is resampled by opusenc, which records the
    /// input rate in the header only as a hint. The header's pre-skip (312 frames at 48 kHz for
    /// opusenc 0.2) is trimmed by conforming decoders. `tags` keys title/artist/album map to
    /// opusenc's flags, others become comments; `chapters` become CHAPTERnnn comments.
    public static func opus(
        seconds: Int = 20, rate: Int = 48000, channels: Int = 2, bitrate: Int = 64,
        tags: [String: String] = [:], chapters: [FixtureChapter] = [], coverJPEG: URL? = nil
    ) throws -> URL {
        try opus(OpusRecipe(
            seconds: seconds, rate: rate, channels: channels, bitrate: bitrate, tags: tags,
            chapters: chapters.map { OpusRecipe.Chapter(startSeconds: $0.startSeconds, title: $0.title) },
            cover: coverJPEG
        ))
    }

    static func opus(_ recipe: OpusRecipe) throws -> URL {
        let source = try timeCodedWAV(seconds: recipe.seconds, rate: recipe.rate, channels: recipe.channels)
        let url = try cache.file(named: recipe.fileName) { url in
            try Command.run("opusenc", recipe.arguments(input: source, output: url)).requireSuccess()
        }
        cache.remember(recipe, for: url)
        return url
    }

    /// A 5 s Opus file whose audio and Ogg pages are intact but whose OpusTags packet claims a
    /// vendor string of ~4 GB: a player must still play it, just without tags.
    ///
    /// Only the page's CRC is recomputed, so a demuxer accepts the page and the damage reaches the
    /// tag parser. Checked with opusinfo, which must report corrupted comments and no broken page.
    public static func opusWithBrokenTags() throws -> URL {
        let source = try opus(seconds: 5, tags: ["title": "Broken tags"])
        return try cache.file(named: "broken-tags.opus") { url in
            var bytes = [UInt8](try Data(contentsOf: source))
            guard let magic = bytes.firstRange(of: Array("OpusTags".utf8))?.lowerBound,
                  let page = bytes[..<magic].lastRange(of: Array("OggS".utf8))?.lowerBound
            else { throw FixtureError.corruptionFailed(source, "no OpusTags packet found") }
            let hugeLength = UInt32(0xFFFF_FF00).littleEndian
            withUnsafeBytes(of: hugeLength) { bytes.replaceSubrange(magic + 8..<magic + 12, with: $0) }
            OggPage.updateChecksum(ofPageAt: page, in: &bytes)
            try Data(bytes).write(to: url)

            let report = try Command.run("opusinfo", [url.path])
            let text = report.stdoutString + report.stderr
            guard text.contains("corrupted comments") || text.contains("Could not decode OpusTags"),
                  !text.contains("Corrupted Ogg"), !text.contains("Hole in data")
            else { throw FixtureError.corruptionFailed(url, "opusinfo did not report exactly broken tags:\n\(text.prefix(2000))") }
        }
    }
}

extension Collection where Element: Equatable {
    /// The last occurrence of `pattern` (the standard library only finds the first).
    func lastRange(of pattern: [Element]) -> Range<Index>? {
        var found: Range<Index>?
        var rest = self[...]
        while let range = rest.firstRange(of: pattern) {
            found = range
            rest = rest[index(after: range.lowerBound)...]
        }
        return found
    }
}
