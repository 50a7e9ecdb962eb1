import Foundation
import TestSupport
import Testing

/// `abplayer probe` names the codec and the source's bit depth (the stream info's codec and bits_per_sample), for every
/// decoder in the tree, from files made by the real encoders.
@Suite struct ProbeCodecTests {
    @Test func eachDecoderNamesItsCodecAndALosslessOneItsBitDepth() throws {
        let abplayer = try AbplayerProcess("probe-codec")
        // A 24-bit FLAC, by sox from the time-coded source
        let flac24 = abplayer.home.appending(path: "24bit.flac")
        try Command.run("sox", [try Fixtures.timeCodedWAV(seconds: 2).path, "-b", "24", flac24.path]).requireSuccess()
        let cases: [(URL, plugin: String, codec: String, bits: Int?)] = [
            (try Fixtures.mp3(seconds: 2, vbr: true), "mpg123", "MP3", nil),
            (try Fixtures.opus(seconds: 2), "opusfile", "Opus", nil),
            (try Fixtures.vorbis(seconds: 2), "vorbisfile", "Vorbis", nil),
            (try Fixtures.flac(seconds: 2), "flac", "FLAC", 16),
            (flac24, "flac", "FLAC", 24),
            (try Fixtures.aac(seconds: 2), "faad", "AAC-LC", nil),
            (try Fixtures.aac(seconds: 2, container: .adts), "faad", "AAC-LC", nil),
            // the profile is the decoded stream's: implicit SBR too, which the container hides
            (HEAACFixture.v1Explicit.url, "faad", "HE-AAC", nil),
            (HEAACFixture.v1Implicit.url, "faad", "HE-AAC", nil),
            (HEAACFixture.adts.url, "faad", "HE-AAC", nil),
            (HEAACFixture.v2ParametricStereo.url, "faad", "HE-AAC v2", nil),
            // the catch-all names what FFmpeg decodes as listeners know it
            (try Fixtures.ffmpeg(.wav16, seconds: 2), "ffmpeg", "PCM", 16),
            (try Fixtures.ffmpeg(.wavFloat, seconds: 2), "ffmpeg", "PCM float", 32),
            (try Fixtures.ffmpeg(.aiff, seconds: 2), "ffmpeg", "PCM", 16),
            (try Fixtures.ffmpeg(.alac, seconds: 2), "ffmpeg", "ALAC", 16),
            (try Fixtures.ffmpeg(.wma, seconds: 2), "ffmpeg", "WMA", nil),
            (try Fixtures.ffmpeg(.ac3, seconds: 2), "ffmpeg", "AC-3", nil),
            (try Fixtures.ffmpeg(.opusWebM, seconds: 2), "ffmpeg", "Opus", nil),
            (try Fixtures.ffmpeg(.flacOgg, seconds: 2), "ffmpeg", "FLAC", 16),
            (try Fixtures.ffmpeg(.wavpack, seconds: 2), "ffmpeg", "WavPack", 16),
        ]
        for (file, plugin, codec, bits) in cases {
            // When probed, then the codec (and a lossless stream's depth) is said, as JSON and as text
            let probe = try abplayer.probe(file)
            #expect(probe.plugin == plugin && probe.codec == codec && probe.bitsPerSample == bits, "\(file.lastPathComponent): \(probe)")
            let text = try abplayer.run(["probe", file.path]).stdoutString
            let line = "  codec:     " + codec + (bits.map { ", \($0)-bit" } ?? "")
            #expect(text.split(separator: "\n").contains { $0 == line }, "\(text)")
        }
    }
}
