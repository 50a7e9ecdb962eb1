public import Foundation

/// A chapter mark for fixtures: where it starts and what it is called.
public typealias FixtureChapter = (startSeconds: Double, title: String)

/// Audio files made by real encoders from `TimeCodedSignal`, for tests to feed the player.
///
/// Every function returns the URL of a file in `directory`, made on first use and shared by every
/// test in the process that asks for the same thing (the name encodes all the parameters). Treat
/// the files as read-only. The directory is left behind on purpose: after a failure, the exact
/// file the test saw is still there to inspect.
public enum Fixtures {
    /// One for the whole process, deliberately: sharing slow-to-make files between parallel tests
    /// is the point. It holds no state a test can observe other than the files themselves.
    static let cache = FixtureCache()

    /// `NSTemporaryDirectory()/abplayer-fixtures-<pid>`.
    public static var directory: URL { cache.directory }

    /// The time-coded signal as 16-bit PCM WAV; the source of every encoded fixture.
    public static func timeCodedWAV(seconds: Int = 20, rate: Int = 44100, channels: Int = 2) throws -> URL {
        try cache.file(named: "timecoded-\(seconds)s-\(rate)hz-\(channels)ch.wav") { url in
            let samples = TimeCodedSignal.render(seconds: seconds, rate: rate, channels: channels)
            try WavFile(rate: rate, channels: channels, samples: samples, encoding: .pcm16).write(to: url)
        }
    }

    /// The time-coded signal as FLAC (lossless: decodes to exactly the PCM16 WAV's samples).
    public static func flac(seconds: Int = 20, rate: Int = 44100, channels: Int = 2) throws -> URL {
        let source = try timeCodedWAV(seconds: seconds, rate: rate, channels: channels)
        return try cache.file(named: "timecoded-\(seconds)s-\(rate)hz-\(channels)ch.flac") { url in
            try Command.run("flac", ["--silent", "--force", "-o", url.path, source.path]).requireSuccess()
        }
    }

    /// A 64×64 solid red JPEG, for cover art.
    public static func coverJPEG() throws -> URL {
        try cache.file(named: "cover-red-64.jpg") { url in
            try Command.run("ffmpeg", [
                "-v", "error", "-y", "-f", "lavfi", "-i", "color=red:s=64x64", "-frames:v", "1", url.path,
            ]).requireSuccess()
        }
    }

    /// The first `keepingFraction` of `file`'s bytes, as a new file with the same extension: a
    /// download cut short.
    public static func truncated(_ file: URL, keepingFraction fraction: Double) throws -> URL {
        guard (0...1).contains(fraction) else { throw FixtureError.invalidArgument("keepingFraction \(fraction) is not in 0...1") }
        let name = "\(file.deletingPathExtension().lastPathComponent)-\(stableDigest(file.path))-keep\(Int((fraction * 1000).rounded()))permille.\(file.pathExtension)"
        return try cache.file(named: "truncated/\(name)") { url in
            let data = try Data(contentsOf: file)
            try data.prefix(Int((Double(data.count) * fraction).rounded(.down))).write(to: url)
        }
    }

    /// A plain text file named `name` (say "chapter1.mp3"): something that claims to be audio and
    /// is not.
    public static func textFile(named name: String) throws -> URL {
        try cache.file(named: "text/\(name)") { url in
            let text = String(repeating: "This is a text file, not audio. It only has an audio file's name.\n", count: 64)
            try Data(text.utf8).write(to: url)
        }
    }

    /// A zero-byte file named `name`.
    public static func emptyFile(named name: String) throws -> URL {
        try cache.file(named: "empty/\(name)") { url in
            try Data().write(to: url)
        }
    }
}
