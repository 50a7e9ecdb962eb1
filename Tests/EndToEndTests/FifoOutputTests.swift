import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestSupport
import Testing

/// The SDK as a stranger gets it (`make install-sdk`, pkg-config, plain `cc`) and the FIFO output
/// built with it, in the built binary.
@Suite struct FifoOutputTests {
    /// `ABP_ABI_MAJOR.ABP_ABI_MINOR` as this tree's header defines them.
    static func abiVersion() throws -> String {
        let header = try String(contentsOf: BuildProducts.sdkInclude.appendingPathComponent("abplayer/plugin.h"), encoding: .utf8)
        func value(_ name: String) -> String? {
            header.split(separator: "\n").first { $0.hasPrefix("#define \(name) ") }.map { String($0.split(separator: " ")[2]) }
        }
        return "\(try #require(value("ABP_ABI_MAJOR"))).\(try #require(value("ABP_ABI_MINOR")))"
    }

    @Test func theInstalledSDKBuildsTheFIFOOutputWithPkgConfigAndTheHostLoadsIt() throws {
        let work = try BuildProducts.temporaryDirectory("install-sdk")
        let package = BuildProducts.packageDirectory.path
        // Given the SDK staged for a package (DESTDIR, PREFIX=/usr): the header, and a .pc naming
        // the real prefix, the ABI version and the directory an installed abplayer reads
        let stage = work.appendingPathComponent("stage")
        try Command.run("make", ["-C", package, "install-sdk", "DESTDIR=\(stage.path)", "PREFIX=/usr"]).requireSuccess()
        let header = stage.appendingPathComponent("usr/include/abplayer/plugin.h")
        #expect(FileManager.default.contentsEqual(atPath: header.path, andPath: BuildProducts.sdkInclude.appendingPathComponent("abplayer/plugin.h").path))
        let pc = stage.appendingPathComponent("usr/share/pkgconfig")
        let variables = try Command.run("pkg-config", ["--modversion", "--variable=plugindir", "abplayer-plugin"],
                                        environment: ["PKG_CONFIG_PATH": pc.path, "PKG_CONFIG_LIBDIR": ""])
        try variables.requireSuccess()
        #expect(variables.stdoutString.split(separator: "\n") == [Substring(try Self.abiVersion()), "/usr/lib/abplayer/plugins"])
        let staged = try Command.run("pkg-config", ["--define-prefix", "--cflags", "abplayer-plugin"],
                                     environment: ["PKG_CONFIG_PATH": pc.path, "PKG_CONFIG_LIBDIR": ""])
        #expect(staged.stdoutString.trimmingCharacters(in: .whitespacesAndNewlines) == "-I\(stage.path)/usr/include")

        // and installed under a prefix of its own
        let prefix = work.appendingPathComponent("prefix")
        try Command.run("make", ["-C", package, "install-sdk", "PREFIX=\(prefix.path)"]).requireSuccess()
        // When fifo.c alone, away from the tree, is built with the README's command
        let source = work.appendingPathComponent("src")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: FifoExample.source.appendingPathComponent("fifo.c"),
                                         to: source.appendingPathComponent("fifo.c"))
        try Command.run("sh", ["-c", #"cd "$1" && cc -shared -fPIC $(pkg-config --cflags abplayer-plugin) fifo.c -o libabplayer-fifo.so"#,
                               "sh", source.path],
                        environment: ["PKG_CONFIG_PATH": prefix.appendingPathComponent("share/pkgconfig").path, "PKG_CONFIG_LIBDIR": ""])
            .requireSuccess()
        let plugins = work.appendingPathComponent("plugins")
        try FifoExample.install(source.appendingPathComponent("libabplayer-fifo.so"), into: plugins)
        // Then the unchanged host loads it as a sink
        let listed = try AbplayerProcess("install-sdk").run(["plugins", "--plugin-dir", plugins.path])
        #expect(listed.status == 0, "\(listed.stderr)")
        let line = listed.stdoutString.split(separator: "\n").first { $0.hasPrefix("fifo ") }
        #expect(line?.contains(" sink ") == true, "\(listed.stdoutString)")
        #expect(line?.contains(plugins.appendingPathComponent("libabplayer-fifo.so").path) == true)
        #expect(!listed.stdoutString.contains("Rejected"), "\(listed.stdoutString)")
    }

    /// `--output fifo:PATH` resolved through the descriptor's `argument_option` ("path").
    @Test func playsEverySecondToThePipeNamedAfterTheOutput() throws {
        // Given a pipe with a reader, and a 5 s book
        let reader = try FifoReader(path: try BuildProducts.temporaryDirectory("fifo-play").appendingPathComponent("snapfifo").path)
        let mp3 = try Fixtures.mp3(seconds: 5, vbr: false)
        // When it is played to `fifo:PIPE`
        let result = try AbplayerProcess("fifo-play").run(
            ["play", mp3.path, "--output", "fifo:\(reader.path)", "--plugin-dir", try FifoExample.pluginDirectory().path],
            timeout: 60)
        // Then the pipe got all of it as 48 kHz stereo s16le, every second in order
        #expect(result.status == 0, "\(result.stderr)")
        #expect(reader.wait(timeout: .seconds(5)) { $0 >= 5 * 48000 })
        let samples = reader.samples()
        let seconds = (0..<5).map { AudioAnalysis.secondAt(frame: $0 * 48000 + 24000, in: samples, channels: 2, rate: 48000) }
        #expect(seconds == [0, 1, 2, 3, 4])
        #expect(reader.frameCount == 5 * 48000)
    }

    /// A named output is opened once per play (plugin.h, the sink's `open`), also when it runs at
    /// another format than the one asked for (the FIFO writes 48 kHz; the book is 44.1 kHz): a
    /// reader that leaves at the first end of file, as `cat` does, gets the whole book, and sees
    /// that end of file only when the play is over.
    @Test func catReadingThePipeGetsTheWholePlayFromOneOpen() throws {
        // Given `cat` reading a pipe into a file
        let directory = try BuildProducts.temporaryDirectory("fifo-cat")
        let pipe = directory.appendingPathComponent("snapfifo").path
        #expect(mkfifo(pipe, 0o644) == 0)
        let captured = directory.appendingPathComponent("captured.raw")
        let cat = Process()
        cat.executableURL = URL(fileURLWithPath: "/bin/sh")
        cat.arguments = ["-c", #"exec cat "$1" > "$2""#, "sh", pipe, captured.path]
        try cat.run()
        defer { if cat.isRunning { cat.terminate() } }
        let mp3 = try Fixtures.mp3(seconds: 5, vbr: false)
        // When a 5 s book is played to `fifo:PIPE`
        let result = try AbplayerProcess("fifo-cat").run(
            ["play", mp3.path, "--output", "fifo:\(pipe)", "--plugin-dir", try FifoExample.pluginDirectory().path],
            timeout: 60)
        // Then the play succeeded, cat ended with it, and what cat read is all of the book, every
        // second in order (a second open would have found cat gone: nothing after its first end of file)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(waitUntil(within: 10) { !cat.isRunning }, "cat still reads")
        let samples = FifoReader.floats(s16le: try Data(contentsOf: captured))
        #expect(samples.count / 2 == 5 * 48000)
        let seconds = (0..<5).map { AudioAnalysis.secondAt(frame: $0 * 48000 + 24000, in: samples, channels: 2, rate: 48000) }
        #expect(seconds == [0, 1, 2, 3, 4])
    }
}
