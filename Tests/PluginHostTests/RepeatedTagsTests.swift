import Foundation
import PlayerCore
import PluginHost
import TestSupport
import Testing

/// The decoders that read Vorbis comments (opusfile, vorbisfile, flac), loaded from the build by
/// the real registry: a repeated comment reaches the host as separate tags, one per value, in the
/// file's order (the host keeps the list and joins it for display), and encoder settings never do.
@Suite struct RepeatedTagsTests {
    static let registry = PluginRegistry(
        searchPath: PluginSearchPath(directories: [
            .init(path: BuildProducts.binDirectory.path, isExplicit: true, filePrefix: "libabplayer-"),
        ]),
        cacheDirectory: nil, log: { _, _, _ in })

    static let artists: [FixtureComment] = [("ARTIST", "Frank Herbert"), ("ARTIST", "Brian Herbert")]

    static func opusWithTwoArtists() throws -> URL {
        let directory = try BuildProducts.temporaryDirectory("repeated-tags-opus")
        let opus = directory.appendingPathComponent("two-artists.opus")
        let source = try Fixtures.timeCodedWAV(seconds: 3, rate: 48000)
        try Command.run("opusenc", ["--quiet", "--artist", "Frank Herbert", "--artist", "Brian Herbert",
                                    "--comment", "ENCODER_OPTIONS=--bitrate 64", source.path, opus.path]).requireSuccess()
        return opus
    }

    @Test(arguments: ["opusfile", "vorbisfile", "flac"])
    func twoArtistsAreTwoTags(plugin: String) throws {
        // Given a file with two ARTIST comments (and the encoder's own comments)
        let file = switch plugin {
        case "opusfile": try Self.opusWithTwoArtists()
        case "vorbisfile": try Fixtures.vorbis(seconds: 3, comments: Self.artists + [("TITLE", "Dune Messiah")])
        default: try Fixtures.flac(seconds: 3, comments: Self.artists + [("TITLE", "Dune Messiah"), ("ENCODER", "x")])
        }
        // When the real plugin opens it
        let decoder = try Self.registry.openDecoder(path: file.path)
        // Then it was that plugin, and each value came as its own tag, in order, never joined
        let entries = decoder.metadata.tags.entries
        #expect(entries.filter { $0.key == "artist" }.map(\.value) == ["Frank Herbert", "Brian Herbert"], "\(entries)")
        #expect(!entries.contains { $0.key.hasPrefix("encoder") }, "\(entries)")
        #expect(decoder.info.totalFrames == Int64(3 * decoder.info.format.rate))
    }
}
