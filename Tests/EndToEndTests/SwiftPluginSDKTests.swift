import Foundation
import TestSupport
import Testing

/// The Swift path of the plugin SDK as a stranger takes it: `make install-sdk` staged for a
/// package, then `plugin-sdk/examples/tone` (a decoder written with PluginKit), copied away from
/// the tree and built by its own Makefile with `swiftc` against what was installed alone, and the
/// unchanged abplayer loading and playing it.
@Suite struct SwiftPluginSDKTests {
    @Test func aSwiftDecoderBuiltOutOfTreeFromTheInstalledSDKLoadsAndPlays() throws {
        let work = try BuildProducts.temporaryDirectory("swift-sdk")
        let package = BuildProducts.packageDirectory.path
        // Given the SDK installed with DESTDIR and PREFIX=/usr: the .pc names its Swift part
        let stage = work.appendingPathComponent("stage")
        try Command.run("make", ["-C", package, "install-sdk", "DESTDIR=\(stage.path)", "PREFIX=/usr"]).requireSuccess()
        let sdk = stage.appendingPathComponent("usr/share/abplayer/sdk")
        let pc = try Command.run("pkg-config", ["--variable=sdkdir", "abplayer-plugin"],
                                 environment: ["PKG_CONFIG_PATH": stage.appendingPathComponent("usr/share/pkgconfig").path,
                                               "PKG_CONFIG_LIBDIR": ""])
        #expect(pc.stdoutString.trimmingCharacters(in: .whitespacesAndNewlines) == "/usr/share/abplayer/sdk")
        for file in ["Package.swift", "ABPluginABI/include/module.modulemap", "ABPluginABI/include/abplayer/plugin.h",
                     "ABPluginABI/src/abi_check.c", "PluginKit/PluginDescriptor.swift"] {
            #expect(FileManager.default.fileExists(atPath: sdk.appendingPathComponent(file).path), "\(file) not installed")
        }

        // When the tone example, alone in a directory of its own, is built with its Makefile
        // against the staged SDK (the README's swiftc command)
        let source = work.appendingPathComponent("tone")
        try FileManager.default.copyItem(
            at: BuildProducts.packageDirectory.appendingPathComponent("plugin-sdk/examples/tone"), to: source)
        try Command.run("make", ["-C", source.path, "SDK_DIR=\(sdk.path)"], timeout: 300).requireSuccess()
        let plugins = work.appendingPathComponent("plugins")
        try FifoExample.install(source.appendingPathComponent("libabplayer-tone.so"), into: plugins)

        // Then abplayer lists it as a decoder
        let abplayer = try AbplayerProcess("swift-sdk")
        let listed = try abplayer.run(["plugins", "--plugin-dir", plugins.path])
        #expect(listed.status == 0, "\(listed.stderr)")
        let line = listed.stdoutString.split(separator: "\n").first { $0.hasPrefix("tone ") }
        #expect(line?.contains(" decoder ") == true, "\(listed.stdoutString)")
        // and plays a tone file through it: two seconds of 440 Hz
        let file = work.appendingPathComponent("a440.tone")
        try "abplayer-tone 440 2\n".write(to: file, atomically: true, encoding: .utf8)
        let decoded = try abplayer.decode(file, extra: ["--plugin-dir", plugins.path])
        #expect(decoded.rate == 44100 && decoded.channels == 2)
        #expect(decoded.frameCount == 2 * 44100)
        let frequency = AudioAnalysis.dominantFrequency(decoded.samples, channels: 2, rate: 44100, from: 22050, count: 22050)
        #expect(abs(frequency - 440) < 1, "\(frequency) Hz")
    }
}
