import Foundation
import TestSupport
import Testing

/// Libraries only some commands need are loaded by those commands, when first needed.
@Suite struct LazyLibrariesTests {
    @Test func playingLoadsNoneOfTheCoverLibraries() async throws {
        // Given abplayer playing an MP3 in real time (the null output is paced; 10 minutes, so it
        // still plays however long this test's task waits for a thread in a full run)
        let mp3 = try Fixtures.mp3(seconds: 600, rate: 8000, channels: 1, vbr: false)
        let player = try PlayerProcess(["--output", "null", mp3.path], environment: [:],
                                       home: try BuildProducts.temporaryDirectory("lazy-libraries"))
        defer { player.send("quit") }
        #expect(await waitForPlace(player, atLeast: 1, timeout: 120), "stdout: \(player.stdout) stderr: \(player.stderr)")
        // Then libchafa, glib, libturbojpeg and libpng are not in its memory map (they are loaded
        // when the first cover is drawn). libdbus cannot be checked the same way: libpulse,
        // which the PulseAudio plugin links, brings it in.
        let maps = try String(contentsOfFile: "/proc/\(player.processIdentifier)/maps", encoding: .utf8)
        for library in ["libchafa", "libglib-2.0", "libturbojpeg", "libpng16"] {
            #expect(!maps.contains(library), "\(library) is loaded while playing")
        }
    }
}
