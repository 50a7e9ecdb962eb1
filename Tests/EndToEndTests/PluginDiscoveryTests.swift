import Foundation
import TestSupport
import Testing

@Suite struct PluginDiscoveryTests {
    @Test func theBuiltPluginsAreFoundBesideTheExecutable() throws {
        let result = try AbplayerProcess("plugins").run(["plugins"])
        #expect(result.status == 0)
        for (id, kind) in [("mpg123", "decoder"), ("opusfile", "decoder"), ("null", "sink"), ("wav", "sink")] {
            let line = result.stdoutString.split(separator: "\n").first { $0.hasPrefix(id + " ") }
            #expect(line?.contains(kind) == true, "\(id): \(result.stdoutString)")
            #expect(line?.contains(BuildProducts.plugin(id).lastPathComponent) == true)
        }
        #expect(!result.stdoutString.contains("Rejected"))
    }

    /// The out-of-tree example: built with plain `cc` from plugin-sdk/examples/flac, dropped into a
    /// plugin directory, and a FLAC file plays through it with the host binary unchanged.
    @Test func theOutOfTreeFLACExampleBuildsAndPlays() throws {
        // Given the example built by its own Makefile, in a copy outside the tree
        let work = try BuildProducts.temporaryDirectory("flac-example")
        let example = work.appendingPathComponent("flac")
        try FileManager.default.copyItem(
            at: BuildProducts.packageDirectory.appendingPathComponent("plugin-sdk/examples/flac"), to: example)
        try Command.run("make", ["-C", example.path, "ABP_INCLUDE=\(BuildProducts.sdkInclude.path)"]).requireSuccess()
        let pluginDirectory = work.appendingPathComponent("plugins")
        try FileManager.default.createDirectory(at: pluginDirectory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: example.appendingPathComponent("abplayer-flac.so"),
            to: pluginDirectory.appendingPathComponent("abplayer-flac.so"))
        let flac = try Fixtures.flac(seconds: 10)
        let abplayer = try AbplayerProcess("flac-example")
        // When the host is pointed at that directory
        let listed = try abplayer.run(["plugins", "--plugin-dir", pluginDirectory.path])
        let probe = try abplayer.probe(flac, extra: ["--plugin-dir", pluginDirectory.path])
        let decoded = try abplayer.decode(flac, extra: ["--plugin-dir", pluginDirectory.path])
        // Then it is loaded and decodes the file losslessly: exactly the 16-bit source's samples
        #expect(listed.stdoutString.contains("flac"))
        #expect(probe.plugin == "flac")
        #expect(probe.frames == 441_000)
        let source = try WavFile.read(try Fixtures.timeCodedWAV(seconds: 10))
        #expect(decoded.frameCount == 441_000)
        #expect(AudioAnalysis.maxAbsDifference(decoded.samples, source.samples) == 0)
    }
}
