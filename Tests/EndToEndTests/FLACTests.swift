import Foundation
import TestSupport
import Testing

/// The in-tree flac plugin through the built binary.
@Suite struct FLACTests {
    @Test func decodeIsLosslessAndSeeksAreExact() throws {
        // Given a 20 s time-coded FLAC file made by the flac tool from a 16-bit WAV
        let flac = try Fixtures.flac(seconds: 20)
        let abplayer = try AbplayerProcess("flac")
        // When probed and decoded whole
        let probe = try abplayer.probe(flac)
        let full = try abplayer.decode(flac)
        let reference = try Fixtures.ffmpegDecode(flac)
        let source = try WavFile.read(try Fixtures.timeCodedWAV(seconds: 20))
        // Then it is the in-tree plugin with the exact length, and exactly the source's samples
        // (as ffmpeg decodes them too)
        #expect(probe.plugin == "flac")
        #expect(probe.rate == 44100 && probe.channels == 2)
        #expect(probe.frames == Int64(20 * 44100))
        #expect(full.frameCount == 20 * 44100)
        #expect(reference.samples.count == full.samples.count)
        #expect(AudioAnalysis.correlation(full.samples, reference.samples) > 0.99999)
        #expect(AudioAnalysis.maxAbsDifference(full.samples, source.samples) == 0)
        // And a decode from a sample-exact time (10.25 s: 452,025 frames) is exactly the source
        // from there, starting in second 10 of the time code
        let part = try abplayer.decode(flac, from: "10.25", to: "11.25")
        #expect(part.frameCount == 44100)
        #expect(AudioAnalysis.maxAbsDifference(part.samples, Array(source.samples[(452_025 * 2)..<(496_125 * 2)])) == 0)
        #expect(AudioAnalysis.secondAt(frame: 11025, in: part.samples, channels: 2, rate: 44100) == 10)
    }

    @Test func tagsChapterCommentsAndCoverComeThrough() throws {
        // Given a FLAC file with tags (ARTIST twice), CHAPTERnnn comments and a PICTURE block
        let cover = try Fixtures.coverJPEG()
        let flac = try Fixtures.flac(
            seconds: 20,
            comments: [("TITLE", "Children of Dune"), ("ARTIST", "Frank Herbert"), ("ARTIST", "Brian Herbert"),
                       ("ALBUM", "Dune Chronicles"), ("TRACKNUMBER", "2/6"), ("ENCODER", "flac by hand"),
                       ("ENCODEROPTIONS", "-8")],
            chapters: [(0, "Intro"), (4.5, "Two"), (15.25, "Three")], coverJPEG: cover)
        // When probed
        let probe = try AbplayerProcess("flac-tags").probe(flac)
        // Then
        #expect(probe.plugin == "flac")
        #expect(probe.tags["title"] == "Children of Dune")
        // Both ARTIST comments, joined as the host shows a repeated tag
        #expect(probe.tags["artist"] == "Frank Herbert; Brian Herbert")
        #expect(probe.tags["album"] == "Dune Chronicles")
        #expect(probe.tags["track"] == "2/6")
        #expect(probe.tags["encoder"] == nil && probe.tags["encoderoptions"] == nil)
        #expect(probe.chapters.map(\.title) == ["Intro", "Two", "Three"])
        #expect(probe.chapters.map(\.startFrame) == [0, 198_450, 672_525])
        #expect(probe.cover?.mimeType == "image/jpeg")
        #expect(probe.cover?.bytes == (try Data(contentsOf: cover)).count)
    }

    @Test func aCuesheetGivesChaptersWithoutTheLeadOut() throws {
        // Given a FLAC file whose only chapter marks are an embedded cuesheet (flac --cuesheet):
        // tracks at 0, 4.4 and 15.2 s (cue times count 1/75 s: 4.4 s is 00:04:30)
        let flac = try Fixtures.flac(seconds: 20, comments: [("TITLE", "Cued")], cueIndexSeconds: [0, 4.4, 15.2])
        // When probed
        let probe = try AbplayerProcess("flac-cue").probe(flac)
        // Then each track's INDEX 01 is a chapter, and the lead-out (the end) is not
        #expect(probe.chapters.map(\.startFrame) == [0, 194_040, 670_320])
        #expect(probe.chapters.count == 3)
    }

    @Test func badInputGetsOneLineAndNoCrash() throws {
        // Given a garbage file with the extension, and a real file cut in half
        let abplayer = try AbplayerProcess("flac-bad")
        let garbage = abplayer.home.appendingPathComponent("garbage.flac")
        try Data((0..<8192).map { UInt8(truncatingIfNeeded: ($0 &* 1_103_515_245 &+ 12_345) >> 16) }).write(to: garbage)
        let truncated = try Fixtures.truncated(try Fixtures.flac(seconds: 20), keepingFraction: 0.5)
        // When each is decoded
        let refused = try abplayer.run(["decode", garbage.path, "-o", abplayer.home.appendingPathComponent("g.wav").path], timeout: 60)
        let output = abplayer.home.appendingPathComponent("t.wav")
        let cut = try abplayer.run(["decode", truncated.path, "-o", output.path], timeout: 60)
        // Then the garbage gets one `abplayer:` line naming it and its reason (no crash: a signal
        // shows as a status above 128)
        #expect(refused.status == 1, "status \(refused.status): \(refused.stderr)")
        let lines = refused.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("abplayer: ") && lines[0].contains(garbage.path), "\(refused.stderr)")
        #expect(lines.first?.lowercased().contains("not a flac stream") == true, "\(refused.stderr)")
        // And the cut file plays what it has, saying so in at most one line
        #expect(cut.status == 0 || cut.status == 1, "status \(cut.status): \(cut.stderr)")
        let cutLines = cut.stderr.split(separator: "\n")
        #expect(cutLines.count <= 1 && cutLines.allSatisfy { $0.hasPrefix("abplayer: ") && $0.contains(truncated.path) }, "\(cut.stderr)")
        let decoded = try WavFile.read(output)
        let seconds = Double(decoded.frameCount) / Double(decoded.rate)
        #expect(seconds > 8 && seconds < 12, "decoded \(seconds) s of a 20 s file cut in half")
        #expect(AudioAnalysis.secondAt(frame: 5 * decoded.rate + decoded.rate / 2, in: decoded.samples,
                                       channels: decoded.channels, rate: decoded.rate) == 5)
    }
}
