import Foundation
import TestSupport
import Testing

/// plugin.h, ABP_OPTION_PATH: a relative path is passed as typed, and is relative to the current
/// directory of the abplayer process that opens the plugin.
@Suite struct RelativeOutputPathTests {
    @Test func aRelativeFileOutputIsWrittenInTheDirectoryAbplayerRunsIn() throws {
        // Given a directory to run in, and a 2 s MP3 elsewhere
        let abplayer = try AbplayerProcess("relative-output")
        let here = abplayer.home.appendingPathComponent("here")
        try FileManager.default.createDirectory(at: here, withIntermediateDirectories: true)
        let mp3 = try Fixtures.mp3(seconds: 2, vbr: false)
        // When it is played there to `wav:out.wav`
        let result = try Command.run(
            "sh", ["-c", #"cd "$1" && exec "$2" play --output wav:out.wav "$3""#, "sh", here.path, BuildProducts.abplayer.path, mp3.path],
            environment: abplayer.environment, timeout: 60)
        // Then the file is there, holding the whole book
        #expect(result.status == 0, "\(result.stderr)")
        let wav = try WavFile.read(here.appendingPathComponent("out.wav"))
        #expect(wav.frameCount == 2 * 44100)
    }
}
