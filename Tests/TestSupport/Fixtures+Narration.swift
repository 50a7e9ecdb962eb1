public import Foundation

/// A narrated book made of real speech: where its long silences (the chapter breaks) lie.
public struct NarrationFixture: Sendable {
    public let url: URL
    /// The long silences put between the chapters, in seconds from the start: (start, end).
    public let breaks: [(start: Double, end: Double)]
    /// The short pauses inside each chapter, which are no chapter breaks.
    public let pauses: [(start: Double, end: Double)]
    public let seconds: Double
}

extension Fixtures {
    /// `chapters` pieces of espeak-ng narration, each two sentences with a pause of
    /// `pauseSeconds` between them, joined by sox with `gapSeconds` of near-silence (white noise
    /// 66 dB under full scale, as room tone under a narrator is never digital zero), encoded by
    /// lame at 22,050 Hz mono. The speech is trimmed of espeak's own leading and trailing quiet,
    /// so the silences are exactly the lengths inserted.
    public static func narration(chapters: Int = 5, gapSeconds: Double = 3, pauseSeconds: Double = 0.4) throws -> NarrationFixture {
        let rate = 22050
        let name = "narration/\(chapters)ch-gap\(gapSeconds)-pause\(pauseSeconds)"
        var breaks: [(Double, Double)] = [], pauses: [(Double, Double)] = [], total = 0.0
        let folder = directory.appending(path: name)
        // The pieces are made first (and kept) so their lengths give the silences' places.
        var parts: [URL] = []
        func quiet(_ seconds: Double) throws -> URL {
            try cache.file(named: "\(name)/quiet-\(seconds).wav") { url in
                try Command.run("sox", ["-n", "-r", "\(rate)", "-c", "1", "-b", "16", url.path,
                                        "synth", "\(seconds)", "whitenoise", "vol", "0.0005"]).requireSuccess()
            }
        }
        func speech(_ text: String, _ key: String) throws -> (URL, Double) {
            let url = try cache.file(named: "\(name)/\(key).wav") { url in
                let raw = folder.appending(path: ".raw-\(UUID().uuidString).wav")
                defer { try? FileManager.default.removeItem(at: raw) }
                try Command.run("espeak-ng", ["-w", raw.path, text]).requireSuccess()
                // Trims espeak's quiet at both ends: the silence effect from the start, twice reversed.
                try Command.run("sox", [raw.path, "-r", "\(rate)", "-c", "1", "-b", "16", url.path,
                                        "silence", "1", "0.01", "0.5%", "reverse", "silence", "1", "0.01", "0.5%", "reverse"]).requireSuccess()
            }
            let samples = try Command.run("soxi", ["-s", url.path])
            try samples.requireSuccess()
            let text = String(decoding: samples.stdout, as: UTF8.self)
            guard let count = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw FixtureError.unreadableProbe(url, text)
            }
            return (url, count / Double(rate))
        }
        let numbers = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
        for index in 0..<chapters {
            if index > 0 {
                parts.append(try quiet(gapSeconds))
                breaks.append((total, total + gapSeconds))
                total += gapSeconds
            }
            let number = numbers[index % numbers.count]
            let (first, firstLength) = try speech("Chapter \(number). The narrator begins to read.", "c\(index)-a")
            parts.append(first)
            total += firstLength
            parts.append(try quiet(pauseSeconds))
            pauses.append((total, total + pauseSeconds))
            total += pauseSeconds
            let (second, secondLength) = try speech("And so the story of part \(number) goes on, until it ends.", "c\(index)-b")
            parts.append(second)
            total += secondLength
        }
        let url = try cache.file(named: "\(name)/book.mp3") { url in
            let joined = folder.appending(path: ".joined-\(UUID().uuidString).wav")
            defer { try? FileManager.default.removeItem(at: joined) }
            try Command.run("sox", parts.map(\.path) + [joined.path]).requireSuccess()
            try Command.run("lame", ["--quiet", "-b", "64", "--tt", "Narration", joined.path, url.path]).requireSuccess()
        }
        return NarrationFixture(url: url, breaks: breaks, pauses: pauses, seconds: total)
    }
}
