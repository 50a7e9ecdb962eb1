import Foundation
import TestSupport
import Testing

/// The vorbisfile plugin through the built binary: tags, chapters, cover, the Opus/Vorbis choice
/// for .ogg, chained files. Length, audio, exact seeks and bad input: the decoder contract
/// (PluginHostTests/DecoderContract*).
@Suite struct VorbisTests {
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
}
