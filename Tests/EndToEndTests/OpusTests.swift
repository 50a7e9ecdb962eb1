import Foundation
import TestSupport
import Testing

/// The opusfile plugin through the built binary: tags, chapters, cover, 5.1. Length, audio, exact
/// seeks and bad input: the decoder contract (PluginHostTests/DecoderContract*).
@Suite struct OpusTests {
    @Test func tagsChaptersAndCoverComeThrough() throws {
        let cover = try Fixtures.coverJPEG()
        let opus = try Fixtures.opus(
            seconds: 20,
            tags: ["TITLE": "Children of Dune", "ARTIST": "Frank Herbert", "ALBUM": "Dune Chronicles",
                   "NARRATOR": "Scott Brick", "TRACKNUMBER": "2", "TRACKTOTAL": "6", "DATE": "1976"],
            chapters: [(0, "Intro"), (4.5, "Глава 2"), (15.25, "終わり")], coverJPEG: cover)
        let probe = try AbplayerProcess("opus-tags").probe(opus)
        #expect(probe.tags["title"] == "Children of Dune")
        #expect(probe.tags["artist"] == "Frank Herbert")
        #expect(probe.tags["album"] == "Dune Chronicles")
        #expect(probe.tags["narrator"] == "Scott Brick")
        #expect(probe.tags["track"] == "2/6")
        #expect(probe.tags["year"] == "1976")
        #expect(probe.chapters.map(\.title) == ["Intro", "Глава 2", "終わり"])
        #expect(probe.chapters.map(\.startFrame) == [0, 216_000, 732_000])
        #expect(probe.cover?.mimeType == "image/jpeg")
        #expect(probe.cover?.bytes == (try Data(contentsOf: cover)).count)
    }

    @Test func fivePointOneComesOutInSMPTEOrder() throws {
        // Given a 5.1 Opus file (mapping family 1) whose six input channels (FL FR FC LFE BL BR,
        // the WAV order opusenc reads) each carry their own tone; Opus stores and libopusfile
        // returns them in Vorbis order (FL C FR RL RR LFE)
        let abplayer = try AbplayerProcess("opus-5.1")
        let source = abplayer.home.appendingPathComponent("six.wav")
        let opus = abplayer.home.appendingPathComponent("six.opus")
        let tones: [Double] = [400, 600, 800, 80, 1200, 1400]
        try Command.run("sox", ["-q", "-n", "-r", "48000", "-c", "6", "-b", "16", source.path, "synth", "3"]
                        + tones.flatMap { ["sine", String(Int($0))] } + ["vol", "0.5"]).requireSuccess()
        try Command.run("opusenc", ["--quiet", "--bitrate", "384", source.path, opus.path]).requireSuccess()
        // When decoded
        let decoded = try abplayer.decode(opus)
        // Then it has six channels, each with its own tone where the ABI's SMPTE order puts it
        #expect(decoded.channels == 6 && decoded.frameCount == 3 * 48000)
        for (channel, tone) in tones.enumerated() {
            let heard = AudioAnalysis.dominantFrequency(decoded.samples, channels: 6, channel: channel, rate: 48000, from: 48000, count: 24000)
            #expect(abs(heard - tone) < 5, "channel \(channel): \(heard) Hz, expected \(tone)")
        }
    }
}
