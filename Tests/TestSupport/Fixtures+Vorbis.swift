public import Foundation

/// A comment as a Vorbis comment writer takes it: NAME=value, repeatable (two ARTIST comments are
/// two entries).
public typealias FixtureComment = (name: String, value: String)

extension Fixtures {
    /// The time-coded signal encoded by oggenc at quality `quality`, with `comments` (repeats
    /// kept, in order), `chapters` as CHAPTERnnn/CHAPTERnnnNAME comments and `coverJPEG` as a
    /// METADATA_BLOCK_PICTURE comment (front cover). oggenc keeps the source's rate and length.
    public static func vorbis(
        seconds: Int = 20, rate: Int = 44100, channels: Int = 2, quality: Int = 4,
        comments: [FixtureComment] = [], chapters: [FixtureChapter] = [], coverJPEG: URL? = nil
    ) throws -> URL {
        let source = try timeCodedWAV(seconds: seconds, rate: rate, channels: channels)
        var all = comments + chapterComments(chapters)
        if let coverJPEG {
            all.append(("METADATA_BLOCK_PICTURE", try pictureBlock(jpeg: coverJPEG).base64EncodedString()))
        }
        let name = "timecoded-\(seconds)s-\(rate)hz-\(channels)ch-q\(quality)-\(stableDigest(all.map { "\($0.name)=\($0.value)" }.joined(separator: "\n"))).ogg"
        return try cache.file(named: name) { url in
            let tagging = all.flatMap { ["-c", "\($0.name)=\($0.value)"] }
            try Command.run("oggenc", ["--quiet", "-q", String(quality)] + tagging + ["-o", url.path, source.path]).requireSuccess()
        }
    }

    /// The time-coded signal as FLAC with `comments` (repeats kept), `chapters` as CHAPTERnnn
    /// comments, a cuesheet (its INDEX 01 times, as cue MM:SS:FF with 75 frames a second) and a
    /// front-cover picture, all written by the flac tool. Lossless: decodes to the WAV's samples.
    public static func flac(
        seconds: Int = 20, comments: [FixtureComment], chapters: [FixtureChapter] = [],
        cueIndexSeconds: [Double] = [], coverJPEG: URL? = nil
    ) throws -> URL {
        let source = try timeCodedWAV(seconds: seconds)
        let all = comments + chapterComments(chapters)
        let recipe = all.map { "\($0.name)=\($0.value)" } + cueIndexSeconds.map { "cue \($0)" } + [coverJPEG?.path ?? ""]
        return try cache.file(named: "timecoded-\(seconds)s-tagged-\(stableDigest(recipe.joined(separator: "\n"))).flac") { url in
            var arguments = ["--silent", "--force"] + all.flatMap { ["-T", "\($0.name)=\($0.value)"] }
            if !cueIndexSeconds.isEmpty {
                let cue = url.deletingPathExtension().appendingPathExtension("cue")
                try cueSheet(wav: source, indexSeconds: cueIndexSeconds).write(to: cue, atomically: true, encoding: .utf8)
                arguments.append("--cuesheet=\(cue.path)")
            }
            if let coverJPEG { arguments.append("--picture=\(coverJPEG.path)") }
            try Command.run("flac", arguments + ["-o", url.path, source.path]).requireSuccess()
        }
    }

    static func chapterComments(_ chapters: [FixtureChapter]) -> [FixtureComment] {
        chapters.enumerated().flatMap { index, chapter -> [FixtureComment] in
            let number = String(format: "%03d", index + 1)
            let millis = Int((chapter.startSeconds * 1000).rounded())
            let time = String(format: "%02d:%02d:%02d.%03d", millis / 3_600_000, millis / 60_000 % 60, millis / 1000 % 60, millis % 1000)
            return [("CHAPTER\(number)", time), ("CHAPTER\(number)NAME", chapter.title)]
        }
    }

    /// A cue sheet with one track per start (cue times are MM:SS:FF, 75 frames a second).
    static func cueSheet(wav: URL, indexSeconds: [Double]) -> String {
        var text = "FILE \"\(wav.lastPathComponent)\" WAVE\n"
        for (index, start) in indexSeconds.enumerated() {
            let frames = Int((start * 75).rounded())
            text += String(format: "  TRACK %02d AUDIO\n    INDEX 01 %02d:%02d:%02d\n", index + 1, frames / 75 / 60, frames / 75 % 60, frames % 75)
        }
        return text
    }

    /// A FLAC PICTURE block body (what METADATA_BLOCK_PICTURE carries in base64): front cover,
    /// image/jpeg, no description, dimensions left 0 (readers take them from the image).
    static func pictureBlock(jpeg: URL) throws -> Data {
        let image = try Data(contentsOf: jpeg)
        var block = Data()
        func append(_ value: UInt32) { withUnsafeBytes(of: value.bigEndian) { block.append(contentsOf: $0) } }
        let mime = Data("image/jpeg".utf8)
        append(3)
        append(UInt32(mime.count))
        block.append(mime)
        append(0) // description
        for _ in 0..<4 { append(0) } // width, height, depth, colours
        append(UInt32(image.count))
        block.append(image)
        return block
    }
}
