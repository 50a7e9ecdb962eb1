import Foundation
import TestSupport
import Testing

/// A book of many files plays as one: a source split into parts, each part encoded on its own with
/// the encoder's gapless information, plays through the wav sink with no gap, no doubled or lost
/// frame and no click where one file hands over to the next.
///
/// "Sample-exact" for a lossy codec cannot mean bit-exact against the source or against the
/// unsplit file: each is a different encode, and every encode has its own quantisation noise.
/// What is exact is the bookkeeping: the split book gives exactly the source's number of frames
/// (the unsplit file's too), and every frame sits at its source place, lag 0 on both sides of each
/// boundary. What is lossy is bounded: the seam looks like the source there, and like what an
/// independent gapless decoder (ffmpeg) makes of the same parts.
@Suite struct SeamlessFilesTests {
    /// One encoder with its gapless information: lame's LAME tag (delay and padding), opusenc's
    /// pre-skip and end granule, ffmpeg's edit list (priming, and the stts cut to the source's end).
    struct Codec: Sendable, CustomStringConvertible {
        let name: String
        let fileExtension: String
        /// The rate the codec decodes at (Opus: always 48 kHz, so its source is made at 48 kHz).
        let rate: Int
        let arguments: @Sendable (_ input: String, _ output: String) -> (String, [String])
        var description: String { name }

        func encode(_ input: URL, to output: URL) throws {
            let (executable, arguments) = arguments(input.path, output.path)
            try Command.run(executable, arguments).requireSuccess()
        }

        // High bitrates keep the encoders' own noise at a part's abrupt start and end small, so
        // that a click the player made would stand out from it.
        static let all: [Codec] = [
            Codec(name: "MP3", fileExtension: "mp3", rate: 44100) { ("lame", ["--quiet", "--nohist", "-b", "320", $0, $1]) },
            Codec(name: "Opus", fileExtension: "opus", rate: 48000) { ("opusenc", ["--quiet", "--bitrate", "160", $0, $1]) },
            Codec(name: "AAC", fileExtension: "m4a", rate: 44100) {
                ("ffmpeg", ["-v", "error", "-y", "-i", $0, "-c:a", "aac", "-b:a", "256k", "-aac_pns", "0", $1])
            },
        ]
    }

    static let seconds = 12
    static let channels = 2

    /// The part boundaries: 3.71 s and 8.29 s, moved by two frames so that neither falls on a
    /// codec frame (1152 for MP3, 1024 for AAC, 960 and 120 for Opus at 48 kHz).
    static func boundaries(rate: Int) -> [Int] {
        [rate * 371 / 100 + 2, rate * 829 / 100 - 2]
    }

    /// The source, its three parts and the unsplit file, all encoded. sox makes two sweeps per
    /// channel (200 to 1200 Hz with 1370 to 610 Hz left, 900 to 300 Hz with 530 to 1450 Hz right,
    /// undithered so the figures below repeat): any frame out of place changes the phase from
    /// there on, a swap of channels shows, and, unlike one sweep, the sum does not look like
    /// itself one period later (a single sweep near 690 Hz let the encoder noise pull a lag
    /// search to -63 frames, one period, at a seam that was exact).
    struct Book {
        let source: URL
        let parts: [URL]
        let whole: URL
    }

    static func book(_ codec: Codec, in folder: URL) throws -> Book {
        let source = folder.appending(path: "source.wav")
        try Command.run("sox", [
            "-D", "-n", "-r", "\(codec.rate)", "-c", "\(channels)", "-b", "16", source.path,
            "synth", "\(seconds)", "sine", "200-1200", "sine", "900-300",
            "synth", "\(seconds)", "sine", "mix", "1370-610", "sine", "mix", "530-1450", "vol", "0.5",
        ]).requireSuccess()
        let edges = [0] + boundaries(rate: codec.rate) + [seconds * codec.rate]
        var parts: [URL] = []
        for index in 0..<edges.count - 1 {
            let wav = folder.appending(path: "part\(index + 1).wav")
            try Command.run("sox", [source.path, wav.path, "trim", "\(edges[index])s", "\(edges[index + 1] - edges[index])s"]).requireSuccess()
            let encoded = folder.appending(path: "part\(index + 1).\(codec.fileExtension)")
            try codec.encode(wav, to: encoded)
            parts.append(encoded)
        }
        let whole = folder.appending(path: "whole.\(codec.fileExtension)")
        try codec.encode(source, to: whole)
        return Book(source: source, parts: parts, whole: whole)
    }

    /// `play --output wav:OUT FILES`: the wav sink unpaced, as fast as decoded.
    static func play(_ files: [URL], _ abplayer: AbplayerProcess, into name: String) throws -> WavFile {
        let output = abplayer.home.appending(path: name)
        let result = try abplayer.run(["play", "--output", "wav:\(output.path)"] + files.map(\.path))
        guard result.status == 0 else { throw ProbeFailure(stderr: result.stderr) }
        return try WavFile.read(output)
    }

    @Test(arguments: Codec.all)
    func aBookSplitIntoGaplessFilesPlaysAsTheSource(codec: Codec) throws {
        // Given a 12 s source split at 3.71 s and 8.29 s (off any codec frame), each part
        // encoded as its own file, and the source encoded whole
        let abplayer = try AbplayerProcess("seamless-\(codec.name)")
        let book = try Self.book(codec, in: abplayer.home)
        let source = try WavFile.read(book.source)
        let boundaries = Self.boundaries(rate: codec.rate)

        // When the three parts play as one book through the wav sink, and the whole file too
        let split = try Self.play(book.parts, abplayer, into: "split.wav")
        let unsplit = try Self.play([book.whole], abplayer, into: "unsplit.wav")

        // Then the book is exactly the source's length, as the whole file is: nothing lost or
        // added at the boundaries (each part's priming and padding trimmed to the frame)
        #expect(split.rate == codec.rate && split.channels == Self.channels)
        #expect(source.frameCount == Self.seconds * codec.rate)
        #expect(split.frameCount == source.frameCount, "split \(split.frameCount), source \(source.frameCount)")
        #expect(unsplit.frameCount == source.frameCount, "unsplit \(unsplit.frameCount), source \(source.frameCount)")

        // and each part's length, which the library's book timeline is made of, is its source's
        let edges = [0] + boundaries + [source.frameCount]
        let lengths = (0..<book.parts.count).map { Int64(edges[$0 + 1] - edges[$0]) }
        #expect(try book.parts.map { try abplayer.probe($0).frames } == lengths)

        // and the book is, frame for frame, what an independent gapless decoder makes of the same
        // parts laid end to end (ffmpeg, each part cut to its source length: it keeps an AAC
        // file's padding). Measured: at most 1.5e-6 apart for MP3 (mpg123 against ffmpeg's
        // decoder), 2.1e-7 for Opus, 3.9e-7 for AAC (libfaad, PNS off): float rounding, where
        // one frame out of place differs by up to the signal's largest step (0.05), and the
        // AAC parts read 2 frames short (the edit list's rounding) differed by 0.2.
        var reference: [Float] = []
        for (index, part) in book.parts.enumerated() {
            let decoded = try Fixtures.ffmpegDecode(part).samples
            let length = Int(lengths[index]) * Self.channels
            try #require(decoded.count >= length, "ffmpeg decoded \(decoded.count / Self.channels) frames of part \(index + 1)")
            reference += decoded.prefix(length)
        }
        let fromReference = AudioAnalysis.maxAbsDifference(split.samples, reference)
        #expect(fromReference < 1e-4, "\(codec): \(fromReference) from ffmpeg's decode of the parts")

        for channel in 0..<Self.channels {
            let heard = AudioAnalysis.channel(split.samples, channels: Self.channels, index: channel)
            let original = AudioAnalysis.channel(source.samples, channels: Self.channels, index: channel)
            let independent = AudioAnalysis.channel(reference, channels: Self.channels, index: channel)
            for boundary in boundaries {
                let at = "\(codec) channel \(channel) at frame \(boundary)"
                // and every frame is in its place on both sides of each boundary. After it, the
                // window starts 1024 frames in: ffmpeg's AAC encoder can put a burst of noise into
                // the first frames of a file that starts abruptly (error 0.52 on a single sweep at
                // 128 kbit/s, the same through ffmpeg's own decoder), enough to pull a window
                // straddling it to a wrong lag; a frame lost or doubled at the boundary shifts
                // everything after it, so it still shows.
                let before = (boundary - 4096)..<boundary, after = (boundary + 1024)..<(boundary + 5120)
                #expect(AudioAnalysis.bestLag(Array(heard[before]), Array(original[before]), maxLag: 300) == 0, "\(at): before")
                #expect(AudioAnalysis.bestLag(Array(heard[after]), Array(original[after]), maxLag: 300) == 0, "\(at): after")
                // and the seam is the source there, as the rest is. Measured over these 2048
                // frames: 0.99996 or more for MP3, 0.9998 for Opus, 0.9993 for AAC; the whole
                // book correlates with the source at 0.99994 or more.
                let seam = (boundary - 1024)..<(boundary + 1024)
                let seamCorrelation = AudioAnalysis.correlation(Array(heard[seam]), Array(original[seam]))
                #expect(seamCorrelation > 0.998, "\(at): correlation \(seamCorrelation)")
                // and no click: the largest step from one frame to the next near the boundary is
                // the source's, or what ffmpeg makes of the same two files there, and little more.
                // The source's own is not enough: encoding a part that starts or stops abruptly
                // leaves steps of up to 0.111 (MP3), 0.087 (Opus), 0.072 (AAC) there against
                // the source's 0.045-0.053, through ffmpeg's decoders as through ours (equal to
                // 1e-6). The 2 frames each AAC part lost before the edit-list fix made a step of 0.207
                // there, against 0.177 allowed (on a single sweep).
                let near = (boundary - 256)..<(boundary + 256)
                let step = Self.largestStep(heard[near])
                let allowed = max(Self.largestStep(original[near]), Self.largestStep(independent[near])) + 0.03
                #expect(step <= allowed, "\(at): largest step \(step), allowed \(allowed)")
            }
            // and the split book sounds like the unsplit file from end to end (two encodes of
            // the same source: alike, not equal; measured 0.99996 or more)
            let whole = AudioAnalysis.correlation(heard, AudioAnalysis.channel(unsplit.samples, channels: Self.channels, index: channel))
            #expect(whole > 0.9999, "\(codec) channel \(channel): split against unsplit \(whole)")
        }
    }

    static func largestStep(_ samples: ArraySlice<Float>) -> Double {
        zip(samples, samples.dropFirst()).reduce(0.0) { max($0, abs(Double($1.1) - Double($1.0))) }
    }
}
