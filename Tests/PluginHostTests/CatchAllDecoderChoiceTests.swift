import Foundation
import PlayerCore
@testable import PluginHost
import TestSupport
import Testing

/// Which decoder the host picks when the catch-all (ffmpeg) is loaded beside the dedicated ones:
/// a dedicated decoder still plays its own files, and what it declines at open reaches the
/// catch-all (plugin.h: the next claimant is tried when the best one fails to open).
@Suite struct CatchAllDecoderChoiceTests {
    static let registry = DecoderContract.buildRegistry

    /// The plugin the build's registry opens `file` with.
    private func chosen(_ file: URL) throws -> String? {
        (try Self.registry.openDecoder(path: file.path) as? PluginDecoder)?.pluginID
    }

    @Test func dedicatedDecodersStillPlayTheirOwnFiles() throws {
        // Given the whole build's decoders, and a file of each dedicated format
        let files: [(URL, String)] = [
            (try Fixtures.mp3(seconds: 5, vbr: true), "mpg123"),
            (try Fixtures.aac(seconds: 5), "faad"),
            (try Fixtures.opus(seconds: 5), "opusfile"),
            (try Fixtures.vorbis(seconds: 5), "vorbisfile"),
            (try Fixtures.flac(seconds: 5), "flac"),
        ]
        // Then each is opened by its own decoder, not the catch-all
        for (file, plugin) in files {
            #expect(try chosen(file) == plugin, "\(file.lastPathComponent)")
        }
    }

    @Test func whatTheDedicatedDecodersDeclineReachesTheCatchAll() throws {
        // Given an .m4a holding ALAC or MP3 (the AAC decoder claims the MP4 container), an .ogg
        // holding FLAC (the Ogg decoders claim the name), Speex, and a WAV no one else claims
        let formats: [FFmpegFormat] = [.alac, .mp3InMP4, .flacOgg, .speex, .wav16, .wavpack]
        for format in formats {
            let file = try Fixtures.ffmpeg(format, seconds: 3)
            // Then the catch-all opens each
            #expect(try chosen(file) == "ffmpeg", "\(format.encoder) in .\(format.fileExtension)")
        }
    }

    @Test func anOggOpusFileOpusfileDeclinesPlaysAsOpusfileWouldHave() throws {
        // Given a 5 s Opus file whose tags are broken (libopusfile refuses it), and the same file whole
        let broken = try Self.registry.openDecoder(path: try Fixtures.opusWithBrokenTags().path)
        let whole = try Self.registry.openDecoder(path: try Fixtures.opus(seconds: 5, tags: ["title": "Broken tags"]).path)
        #expect((broken as? PluginDecoder)?.pluginID == "ffmpeg")
        #expect((whole as? PluginDecoder)?.pluginID == "opusfile")
        // Then the catch-all states opusfile's length, the source's: the pre-skip is trimmed
        #expect(broken.info.totalFrames == 240_000)
        #expect(whole.info.totalFrames == 240_000)
        // and plays opusfile's audio to the end, within the two Opus decoders' float rounding
        let ours = ContractHarness.readToEnd(broken, limit: 300_000), theirs = ContractHarness.readToEnd(whole, limit: 300_000)
        #expect(ours.error == nil && theirs.error == nil)
        #expect(ours.samples.count == theirs.samples.count)
        #expect(AudioAnalysis.maxAbsDifference(ours.samples, theirs.samples) < 1e-5)
        // and a seek lands where opusfile's does (3.3 s, across the change of second after it)
        for decoder in [broken, whole] { try decoder.seek(to: 158_400) }
        let heard = try ContractHarness.read(broken, frames: 36_000), expected = try ContractHarness.read(whole, frames: 36_000)
        #expect(heard.count == expected.count)
        #expect(AudioAnalysis.maxAbsDifference(heard, expected) < 1e-5)
    }

    @Test func theCatchAllScoresBelowEveryDedicatedClaim() throws {
        // Given the catch-all's probe on a file only the name says is ours, and on content it knows
        let harness = try ContractHarness(pluginPath: try #require(Self.registry.decoders.first { $0.id == "ffmpeg" }).path)
        let directory = try BuildProducts.temporaryDirectory("catch-all-probe")
        let named = directory.appendingPathComponent("noise.wav")
        try randomBytes(count: 4096).write(to: named)
        let known = try harness.probe(try Fixtures.ffmpeg(.wav16, seconds: 1))
        // Then both stay below the 10 a dedicated decoder gives a name it lists
        #expect(try harness.probe(named) < known)
        #expect(known < 10)
        // and it is the decoder of lowest priority
        #expect(Self.registry.decoders.allSatisfy { $0.id == "ffmpeg" || $0.priority > harness.plugin.priority })
    }
}
