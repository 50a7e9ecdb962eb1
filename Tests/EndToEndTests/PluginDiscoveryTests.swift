import Foundation
import TestSupport
import Testing

@Suite struct PluginDiscoveryTests {
    /// A shared library at `library` whose constructor leaves a marker file in `folder`: the
    /// marker's path (it exists once anything has loaded the library).
    static func plantLibrary(at library: URL, in folder: URL) throws -> URL {
        let marker = folder.appendingPathComponent("planted-ran")
        let source = folder.appendingPathComponent("planted.c")
        try """
            #include <stdio.h>
            __attribute__((constructor)) static void planted(void) {
                FILE *file = fopen("\(marker.path)", "w");
                if (file) fclose(file);
            }
            """.write(to: source, atomically: true, encoding: .utf8)
        try Command.run("cc", ["-shared", "-fPIC", "-o", library.path, source.path]).requireSuccess()
        return marker
    }

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

    /// Typed as a command (found on $PATH, so argv[0] is a bare name) in a directory holding a
    /// planted plugin: the plugins beside the executable are found through /proc/self/exe, and
    /// the planted file is never opened (its constructor would leave a marker).
    @Test func startedFromPathItNeverLoadsAPluginFromTheCurrentDirectory() throws {
        let here = try BuildProducts.temporaryDirectory("planted")
        let marker = try Self.plantLibrary(at: here.appendingPathComponent("libabplayer-null.so"), in: here)
        let mp3 = try Fixtures.mp3(seconds: 2, vbr: false)
        let result = try Command.run(
            "sh", ["-c", "cd \"$1\" && exec abplayer play --output null \"$2\"", "sh", here.path, mp3.path],
            environment: [
                "PATH": "\(BuildProducts.binDirectory.path):/usr/bin:/bin", "HOME": here.path,
                "XDG_DATA_HOME": here.appendingPathComponent("data").path,
                "XDG_CACHE_HOME": here.appendingPathComponent("cache").path, "ABPLAYER_PLUGIN_PATH": "",
            ], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marker.path), "the planted plugin was loaded")
    }

    /// The XDG spec says a relative XDG_DATA_HOME is to be ignored: `XDG_DATA_HOME=.` (or `HOME=.`
    /// without it) run in a folder holding `abplayer/plugins/` made that folder trusted, and a
    /// planted library's constructor ran.
    @Test func aRelativeXDGDataHomeOrHomeNeverMakesTheCurrentDirectoryAPluginDirectory() throws {
        // Given a folder with a planted library (its constructor leaves a marker) and a copy of a
        // real plugin, in ./abplayer/plugins
        let here = try BuildProducts.temporaryDirectory("planted-xdg")
        let planted = here.appendingPathComponent("abplayer/plugins")
        try FileManager.default.createDirectory(at: planted, withIntermediateDirectories: true)
        let marker = try Self.plantLibrary(at: planted.appendingPathComponent("planted.so"), in: here)
        try FileManager.default.copyItem(at: BuildProducts.plugin("null"), to: planted.appendingPathComponent("null.so"))

        // When `abplayer plugins` runs there with XDG_DATA_HOME=., then with HOME=. and no XDG_DATA_HOME
        for (name, environment) in [("XDG_DATA_HOME=.", ["XDG_DATA_HOME": ".", "HOME": here.appendingPathComponent("home").path]),
                                    ("HOME=.", ["HOME": "."])] {
            let result = try Command.run(
                "sh", ["-c", "cd \"$1\" && exec \"$2\" plugins", "sh", here.path, BuildProducts.abplayer.path],
                environment: environment.merging(["PATH": "/usr/bin:/bin", "XDG_CACHE_HOME": here.appendingPathComponent("cache").path,
                                                  "ABPLAYER_PLUGIN_PATH": ""]) { old, _ in old }, timeout: 60)

            // Then it lists the plugins beside the executable, nothing from the folder, and the
            // planted library was never opened
            #expect(result.status == 0, "\(name): \(result.stderr)")
            #expect(result.stdoutString.contains(BuildProducts.plugin("null").lastPathComponent), "\(name): \(result.stdoutString)")
            #expect(!result.stdoutString.contains(planted.path) && !result.stdoutString.contains("abplayer/plugins/"), "\(name): \(result.stdoutString)")
            #expect(!FileManager.default.fileExists(atPath: marker.path), "\(name): the planted library was loaded")
        }
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
            at: example.appendingPathComponent("libabplayer-flac-example.so"),
            to: pluginDirectory.appendingPathComponent("libabplayer-flac-example.so"))
        let flac = try Fixtures.flac(seconds: 10)
        let abplayer = try AbplayerProcess("flac-example")
        // When the host is pointed at that directory
        let listed = try abplayer.run(["plugins", "--plugin-dir", pluginDirectory.path])
        let probe = try abplayer.probe(flac, extra: ["--plugin-dir", pluginDirectory.path])
        let decoded = try abplayer.decode(flac, extra: ["--plugin-dir", pluginDirectory.path])
        // Then it is loaded and decodes the file losslessly: exactly the 16-bit source's samples
        // (its priority puts it before the in-tree "flac")
        #expect(listed.stdoutString.contains("flac-example"))
        #expect(probe.plugin == "flac-example")
        #expect(probe.frames == 441_000)
        // (and it names its codec and bit depth, in C)
        #expect(probe.codec == "FLAC" && probe.bitsPerSample == 16, "\(probe)")
        let source = try WavFile.read(try Fixtures.timeCodedWAV(seconds: 10))
        #expect(decoded.frameCount == 441_000)
        #expect(AudioAnalysis.maxAbsDifference(decoded.samples, source.samples) == 0)
    }
}
