public import Foundation

/// Where the parts of a narration fixture are, in frames of its source.
public struct NarrationLayout: Sendable {
    public let rate: Int
    /// Each phrase of speech: first frame and length.
    public let speech: [(start: Int, frames: Int)]
    /// Each silence put after a phrase (all but the last): first frame and length.
    public let silences: [(start: Int, frames: Int)]
    public var totalFrames: Int { speech.last.map { $0.start + $0.frames } ?? 0 }
}

extension Fixtures {
    static let narrationPhrases = [
        "The ship left the harbour at dawn.", "Nobody on board had slept.", "The captain read the letter twice.",
        "Then she folded it away.", "By noon the coast was gone.",
    ]

    /// Speech by espeak-ng (22.05 kHz mono), each phrase trimmed of its own leading and trailing
    /// quiet by sox, with digital silences of `silences` seconds (made by sox) between them,
    /// the silences `repeats` times over (a phrase between each two); as 16-bit WAV and as FLAC (lossless: it decodes to the WAV).
    public static func narration(silences: [Double], repeats: Int = 1) throws -> (flac: URL, wav: URL, layout: NarrationLayout) {
        let name = "narration-\(silences.map { "\($0)" }.joined(separator: "-"))-x\(repeats)"
        let wav = try cache.file(named: "\(name).wav") { url in
            let work = url.deletingLastPathComponent().appending(path: "\(name)-parts")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            var files: [String] = []
            let gaps = (0..<repeats).flatMap { _ in silences }
            for index in 0...gaps.count {
                let spoken = work.appending(path: "spoken-\(index).wav").path
                let trimmed = work.appending(path: "phrase-\(index).wav").path
                try Command.run("espeak-ng", ["-w", spoken, narrationPhrases[index % narrationPhrases.count]]).requireSuccess()
                try Command.run("sox", [spoken, trimmed, "silence", "1", "0.005", "0.1%", "reverse", "silence", "1", "0.005", "0.1%", "reverse"])
                    .requireSuccess()
                files.append(trimmed)
                if index < gaps.count {
                    let silence = work.appending(path: "silence-\(index).wav").path
                    try Command.run("sox", ["-n", "-r", "22050", "-c", "1", "-b", "16", silence, "trim", "0", "\(gaps[index])"]).requireSuccess()
                    files.append(silence)
                }
            }
            try Command.run("sox", files + [url.path]).requireSuccess()
        }
        let flac = try cache.file(named: "\(name).flac") { url in
            try Command.run("flac", ["--silent", "--force", "-o", url.path, wav.path]).requireSuccess()
        }
        let work = wav.deletingLastPathComponent().appending(path: "\(name)-parts")
        let gapCount = silences.count * repeats
        let parts = (0...gapCount).flatMap { index in
            [work.appending(path: "phrase-\(index).wav")] + (index < gapCount ? [work.appending(path: "silence-\(index).wav")] : [])
        }
        var speech: [(Int, Int)] = []
        var quiet: [(Int, Int)] = []
        var at = 0
        for (index, part) in parts.enumerated() {
            let frames = try WavFile.read(part).frameCount
            if index % 2 == 0 { speech.append((at, frames)) } else { quiet.append((at, frames)) }
            at += frames
        }
        return (flac, wav, NarrationLayout(rate: 22050, speech: speech, silences: quiet))
    }
}
