import Foundation
import TestSupport
import Testing

/// The vorbisfile plugin through the built binary.
@Suite struct VorbisTests {
    @Test func lengthAudioAndSeeksAreExact() throws {
        // Given a 20 s time-coded Ogg Vorbis file made by oggenc
        let ogg = try Fixtures.vorbis(seconds: 20)
        let abplayer = try AbplayerProcess("vorbis")
        // When probed and decoded whole
        let probe = try abplayer.probe(ogg)
        let full = try abplayer.decode(ogg)
        let reference = try Fixtures.ffmpegDecode(ogg)
        // Then it is read by vorbisfile at the source's rate with the exact length (gapless: the
        // encoder's padding trimmed), and sounds like ffmpeg's own Vorbis decoder
        #expect(probe.plugin == "vorbisfile")
        #expect(probe.rate == 44100 && probe.channels == 2)
        #expect(probe.frames == Int64(20 * 44100))
        #expect(full.frameCount == 20 * 44100)
        #expect(reference.samples.count == full.samples.count)
        #expect(AudioAnalysis.correlation(full.samples, reference.samples) > 0.999)
        for second in [0, 9, 19] {
            #expect(AudioAnalysis.secondAt(frame: second * 44100 + 22050, in: full.samples, channels: 2, rate: 44100) == second)
        }
        // And a decode from a sample-exact time (10.25 s: 452,025 frames) is exactly the full
        // decode's frames from there, and starts in second 10 of the time code
        let part = try abplayer.decode(ogg, from: "10.25", to: "11.25")
        #expect(part.frameCount == 44100)
        let expected = Array(full.samples[(452_025 * 2)..<(496_125 * 2)])
        #expect(AudioAnalysis.maxAbsDifference(part.samples, expected) < 1e-6)
        #expect(AudioAnalysis.secondAt(frame: 11025, in: part.samples, channels: 2, rate: 44100) == 10)
    }

    @Test func tagsChaptersAndCoverComeThrough() throws {
        // Given a Vorbis file with tags (ARTIST twice), CHAPTERnnn comments and a cover
        let cover = try Fixtures.coverJPEG()
        let ogg = try Fixtures.vorbis(
            seconds: 20,
            comments: [("TITLE", "Children of Dune"), ("ARTIST", "Frank Herbert"), ("ARTIST", "Brian Herbert"),
                       ("ALBUM", "Dune Chronicles"), ("NARRATOR", "Scott Brick"), ("TRACKNUMBER", "2"),
                       ("TRACKTOTAL", "6"), ("DATE", "1976-04-01")],
            chapters: [(0, "Intro"), (4.5, "Глава 2"), (15.25, "終わり")], coverJPEG: cover)
        // When probed
        let probe = try AbplayerProcess("vorbis-tags").probe(ogg)
        // Then the tags, chapters (at 44.1 kHz frames) and cover are there, and oggenc's ENCODER
        // comment is not a tag
        #expect(probe.plugin == "vorbisfile")
        #expect(probe.tags["title"] == "Children of Dune")
        // Both ARTIST comments, joined as the host shows a repeated tag
        #expect(probe.tags["artist"] == "Frank Herbert; Brian Herbert")
        #expect(probe.tags["album"] == "Dune Chronicles")
        #expect(probe.tags["narrator"] == "Scott Brick")
        #expect(probe.tags["track"] == "2/6")
        #expect(probe.tags["year"] == "1976")
        #expect(probe.tags["encoder"] == nil)
        #expect(probe.chapters.map(\.title) == ["Intro", "Глава 2", "終わり"])
        #expect(probe.chapters.map(\.startFrame) == [0, 198_450, 672_525])
        #expect(probe.cover?.mimeType == "image/jpeg")
        #expect(probe.cover?.bytes == (try Data(contentsOf: cover)).count)
    }

    @Test func anOpusFileNamedOggStillGoesToOpusfile() throws {
        // Given an Ogg Opus file renamed .ogg (both Ogg decoders list the extension)
        let opus = try Fixtures.opus(seconds: 5)
        let abplayer = try AbplayerProcess("vorbis-opus-probe")
        let renamed = abplayer.home.appendingPathComponent("really-opus.ogg")
        try FileManager.default.copyItem(at: opus, to: renamed)
        // When probed
        let probe = try abplayer.probe(renamed)
        // Then the first packet decides: it is Opus
        #expect(probe.plugin == "opusfile")
        #expect(probe.frames == Int64(5 * 48000))
    }

    @Test func aChainedFileOfTwoLayoutsPlaysThrough() throws {
        // Given two links glued together: 3 s of stereo, then 2 s of mono (a book made of parts)
        let abplayer = try AbplayerProcess("vorbis-chained")
        let stereo = try Fixtures.vorbis(seconds: 3)
        let mono = try Fixtures.vorbis(seconds: 2, channels: 1)
        let chained = abplayer.home.appendingPathComponent("chained.ogg")
        try (try Data(contentsOf: stereo) + (try Data(contentsOf: mono))).write(to: chained)
        // When decoded
        let decoded = try abplayer.decode(chained)
        // Then it plays in the first link's format to the end of the second, the mono link on
        // both channels
        #expect(decoded.channels == 2 && decoded.rate == 44100)
        #expect(decoded.frameCount == 5 * 44100)
        #expect(AudioAnalysis.secondAt(frame: 4 * 44100 + 22050, in: decoded.samples, channels: 2, channel: 1, rate: 44100) == 1)
    }

    @Test func badInputGetsOneLineAndNoCrash() throws {
        // Given a garbage file with the extension, and a real file cut in half
        let abplayer = try AbplayerProcess("ogg-bad")
        let garbage = abplayer.home.appendingPathComponent("garbage.ogg")
        try Data((0..<8192).map { UInt8(truncatingIfNeeded: ($0 &* 1_103_515_245 &+ 12_345) >> 16) }).write(to: garbage)
        let truncated = try Fixtures.truncated(try Fixtures.vorbis(seconds: 20), keepingFraction: 0.5)
        // When each is decoded
        let refused = try abplayer.run(["decode", garbage.path, "-o", abplayer.home.appendingPathComponent("g.wav").path], timeout: 60)
        let output = abplayer.home.appendingPathComponent("t.wav")
        let cut = try abplayer.run(["decode", truncated.path, "-o", output.path], timeout: 60)
        // Then the garbage gets one `abplayer:` line naming it and its reason (no crash: a signal
        // shows as a status above 128)
        #expect(refused.status == 1, "status \(refused.status): \(refused.stderr)")
        let lines = refused.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("abplayer: ") && lines[0].contains(garbage.path), "\(refused.stderr)")
        #expect(lines.first?.lowercased().contains("not an ogg file") == true, "\(refused.stderr)")
        // And the cut file plays what it has, saying so in at most one line
        #expect(cut.status == 0 || cut.status == 1, "status \(cut.status): \(cut.stderr)")
        let cutLines = cut.stderr.split(separator: "\n")
        #expect(cutLines.count <= 1 && cutLines.allSatisfy { $0.hasPrefix("abplayer: ") && $0.contains(truncated.path) }, "\(cut.stderr)")
        let decoded = try WavFile.read(output)
        let seconds = Double(decoded.frameCount) / Double(decoded.rate)
        // (VBR: half the bytes is not quite half the time)
        #expect(seconds > 6 && seconds < 14, "decoded \(seconds) s of a 20 s file cut in half")
        #expect(AudioAnalysis.secondAt(frame: 5 * decoded.rate + decoded.rate / 2, in: decoded.samples,
                                       channels: decoded.channels, rate: decoded.rate) == 5)
    }
}
