import Foundation
import TestSupport
import Testing

/// Libraries only some commands need are loaded by those commands, when first needed.
@Suite struct LazyLibrariesTests {
    @Test func playingToNullLoadsNoneOfTheCoverOrOutputLibraries() async throws {
        // Given abplayer playing an MP3 in real time (the null output is paced; 10 minutes, so it
        // still plays however long this test's task waits for a thread in a full run)
        let mp3 = try Fixtures.mp3(seconds: 600, rate: 8000, channels: 1, vbr: false)
        let player = try PlayerProcess(["--output", "null", mp3.path], environment: [:],
                                       home: try BuildProducts.temporaryDirectory("lazy-libraries"))
        defer { player.send("quit") }
        #expect(await waitForPlace(player, atLeast: 1, timeout: 120), "stdout: \(player.stdout) stderr: \(player.stderr)")
        // Then libchafa, glib, libturbojpeg and libpng are not in its memory map (they are loaded
        // when the first cover is drawn), nor libdbus (MPRIS), nor libebur128 (files played as
        // given are not evened out: nothing measures them), nor the libraries of the outputs
        // not used, though their plugins are loaded: each loads its library when first opened
        // Read to its end: a /proc file says it is empty, and a read by its size stops early.
        let mapsFile = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/\(player.processIdentifier)/maps"))
        let maps = String(decoding: try mapsFile.readToEnd() ?? Data(), as: UTF8.self)
        try mapsFile.close()
        for plugin in ["pulse", "jack", "alsa"] {
            #expect(maps.contains("libabplayer-\(plugin).so"), "the \(plugin) plugin is not loaded")
        }
        for library in ["libchafa", "libglib-2.0", "libturbojpeg", "libpng16", "libdbus-1", "libpulse", "libjack", "libasound", "libsoxr", "libgomp", "libebur128"] {
            #expect(!maps.contains(library), "\(library) is loaded while playing")
        }
        // nor FFmpeg's libraries: the catch-all decoder is loaded, and loads them when it first
        // opens a file, which an MP3 never makes it do
        #expect(maps.contains("libabplayer-ffmpeg.so"), "the ffmpeg plugin is not loaded")
        for library in ["libavcodec", "libavformat", "libavutil", "libswresample"] {
            #expect(!maps.contains(library), "\(library) is loaded while playing an MP3")
        }
    }

    @Test func playingAWAVLoadsFFmpegsLibraries() async throws {
        // Given abplayer playing a WAV, which only the catch-all decoder claims (10 minutes of
        // 8 kHz mono, so it still plays however long this test waits)
        let wav = try Fixtures.timeCodedWAV(seconds: 600, rate: 8000, channels: 1)
        let player = try PlayerProcess(["--output", "null", wav.path], environment: [:],
                                       home: try BuildProducts.temporaryDirectory("lazy-libraries-wav"))
        defer { player.send("quit") }
        #expect(await waitForPlace(player, atLeast: 1, timeout: 120), "stdout: \(player.stdout) stderr: \(player.stderr)")
        // Then libavformat and libavcodec are in its memory map: loaded by the plugin that opened it
        let mapsFile = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/\(player.processIdentifier)/maps"))
        let maps = String(decoding: try mapsFile.readToEnd() ?? Data(), as: UTF8.self)
        try mapsFile.close()
        for library in ["libavcodec", "libavformat"] {
            #expect(maps.contains(library), "\(library) is not loaded while playing a WAV")
        }
    }

    @Test func theBinaryDoesNotLinkLibebur128() throws {
        // Given the built binary, when its dynamic section is read
        let dynamic = try dynamicSection(of: BuildProducts.abplayer.path)
        // Then libebur128 is not among the libraries it needs: it is loaded when a book is first
        // measured (a library book played for the first time, or `loudness measure`), so `--help`,
        // `remote status`, files played as given and a book already measured never map it
        #expect(dynamic.contains("NEEDED"), "\(dynamic)")
        #expect(!dynamic.contains("libebur128"), "\(dynamic)")
    }

    @Test func noPluginNeedsTheSharedFoundation() throws {
        // Given every plugin built beside the binary
        let plugins = try FileManager.default.contentsOfDirectory(atPath: BuildProducts.binDirectory.path)
            .filter { $0.hasPrefix("libabplayer-") && $0.hasSuffix(".so") }
        #expect(plugins.count >= 10, "\(plugins)")
        for plugin in plugins {
            // When its dynamic section is read
            let path = BuildProducts.binDirectory.appendingPathComponent(plugin).path
            let dynamic = try dynamicSection(of: path)
            // Then it needs the Swift runtime at most, never Foundation: the release binary has
            // Foundation linked in, and a shared one beside it would be a second copy
            #expect(dynamic.contains("NEEDED"), "\(plugin): \(dynamic)")
            #expect(!dynamic.contains("Foundation"), "\(plugin) needs a shared Foundation: \(dynamic)")
        }
    }

    /// `readelf -d`: the libraries a binary or plugin needs, among the rest of its dynamic section.
    private func dynamicSection(of path: String) throws -> String {
        try Command.run("readelf", ["-d", path]).requireSuccess().stdoutString
    }
}
