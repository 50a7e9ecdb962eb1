import Foundation
import TestSupport
import Testing

/// A book of many files plays as one: a source split into parts, each part encoded on its own with
/// the encoder's gapless information (lame's LAME tag, opusenc's pre-skip and end granule, an AAC
/// edit list, or iTunSMPB in its place), plays through the wav sink with no gap, no doubled or
/// lost frame and no click where one file hands over to the next.
///
/// "Sample-exact" for a lossy codec cannot mean bit-exact against the source or against the
/// unsplit file: each is a different encode, and every encode has its own quantisation noise.
/// What is exact is the bookkeeping: the split book gives exactly the source's number of frames
/// (the unsplit file's too), and every frame sits at its source place, lag 0 on both sides of each
/// boundary. What is lossy is bounded: the seam looks like the source there, and like what an
/// independent gapless decoder (ffmpeg) makes of the same parts.
@Suite struct SeamlessFilesTests {
    /// `play --output wav:OUT FILES`: the wav sink unpaced, as fast as decoded.
    static func play(_ files: [URL], _ abplayer: AbplayerProcess, into name: String) throws -> WavFile {
        let output = abplayer.home.appending(path: name)
        let result = try abplayer.run(["play", "--output", "wav:\(output.path)"] + files.map(\.path))
        guard result.status == 0 else { throw ProbeFailure(stderr: result.stderr) }
        return try WavFile.read(output)
    }

    @Test(arguments: GaplessSplit.Codec.all)
    func aBookSplitIntoGaplessFilesPlaysAsTheSource(codec: GaplessSplit.Codec) throws {
        // Given a 12 s source split at 3.71 s and 8.29 s (off any codec frame), each part
        // encoded as its own file, and the source encoded whole
        let abplayer = try AbplayerProcess("seamless-\(codec.name)")
        let book = try GaplessSplit(codec, in: abplayer.home)
        let source = try WavFile.read(book.source)
        let boundaries = book.boundaries

        // When the three parts play as one book through the wav sink, and the whole file too
        let split = try Self.play(book.parts, abplayer, into: "split.wav")
        let unsplit = try Self.play([book.whole], abplayer, into: "unsplit.wav")

        // Then the book is exactly the source's length, as the whole file is: nothing lost or
        // added at the boundaries (each part's priming and padding trimmed to the frame)
        #expect(split.rate == codec.rate && split.channels == GaplessSplit.channels)
        #expect(source.frameCount == GaplessSplit.seconds * codec.rate)
        #expect(split.frameCount == source.frameCount, "split \(split.frameCount), source \(source.frameCount)")
        #expect(unsplit.frameCount == source.frameCount, "unsplit \(unsplit.frameCount), source \(source.frameCount)")

        // and each part's length, which the library's book timeline is made of, is its source's
        let lengths = book.partFrames
        #expect(try book.parts.map { try abplayer.probe($0).frames } == lengths)

        // and the book is, frame for frame, what an independent gapless decoder makes of the same
        // parts laid end to end (ffmpeg, each part cut to its source length: it keeps an AAC
        // file's padding). Measured: at most 1.5e-6 apart for MP3 (mpg123 against ffmpeg's
        // decoder), 2.1e-7 for Opus, 3.9e-7 for AAC (libfaad, PNS off): float rounding, where
        // one frame out of place differs by up to the signal's largest step (0.05), and the
        // AAC parts read 2 frames short (the edit list's rounding) differed by 0.2 (on a single
        // sweep).
        var reference: [Float] = []
        for (index, part) in book.parts.enumerated() {
            let decoded = try Fixtures.ffmpegDecode(part).samples
            let length = Int(lengths[index]) * GaplessSplit.channels
            try #require(decoded.count >= length, "ffmpeg decoded \(decoded.count / GaplessSplit.channels) frames of part \(index + 1)")
            reference += decoded.prefix(length)
        }
        let fromReference = AudioAnalysis.maxAbsDifference(split.samples, reference)
        #expect(fromReference < 1e-4, "\(codec): \(fromReference) from ffmpeg's decode of the parts")

        for channel in 0..<GaplessSplit.channels {
            let heard = AudioAnalysis.channel(split.samples, channels: GaplessSplit.channels, index: channel)
            let original = AudioAnalysis.channel(source.samples, channels: GaplessSplit.channels, index: channel)
            let independent = AudioAnalysis.channel(reference, channels: GaplessSplit.channels, index: channel)
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
                // 1e-6). The 2 frames each AAC part lost before the edit-list fix made a step of
                // 0.207 there, against 0.177 allowed (on a single sweep).
                let near = (boundary - 256)..<(boundary + 256)
                let step = Self.largestStep(heard[near])
                let allowed = max(Self.largestStep(original[near]), Self.largestStep(independent[near])) + 0.03
                #expect(step <= allowed, "\(at): largest step \(step), allowed \(allowed)")
            }
            // and the split book sounds like the unsplit file from end to end (two encodes of
            // the same source: alike, not equal; measured 0.99996 or more)
            let whole = AudioAnalysis.correlation(heard, AudioAnalysis.channel(unsplit.samples, channels: GaplessSplit.channels, index: channel))
            #expect(whole > 0.9999, "\(codec) channel \(channel): split against unsplit \(whole)")
        }
    }

    static func largestStep(_ samples: ArraySlice<Float>) -> Double {
        zip(samples, samples.dropFirst()).reduce(0.0) { max($0, abs(Double($1.1) - Double($1.0))) }
    }
}
