import Foundation
import TestSupport
import Testing

/// Every decoder plugin's warnings name the file they are about: a listener decoding a folder
/// must know which file is cut short or carries a bad chapter.
@Suite struct PluginLogTests {
    @Test func eachDecoderPluginsWarningNamesTheFile() throws {
        let abplayer = try AbplayerProcess("plugin-log")
        // Given a truncated MP3 (Xing length), a truncated ADTS stream, and an Opus file with a
        // chapter whose time does not parse
        let mp3 = try Fixtures.truncated(try Fixtures.mp3(seconds: 20, vbr: true), keepingFraction: 0.5)
        let adts = try Fixtures.truncated(try Fixtures.aac(seconds: 10, container: .adts), keepingFraction: 0.5)
        let opus = abplayer.home.appendingPathComponent("bad-chapter.opus")
        try Command.run("opusenc", ["--quiet", "--comment", "CHAPTER001=soon", "--comment", "CHAPTER001NAME=One",
                                    try Fixtures.timeCodedWAV(seconds: 3).path, opus.path]).requireSuccess()
        for (file, plugin) in [(mp3, "mpg123"), (adts, "faad"), (opus, "opusfile")] {
            // When each is decoded
            let output = abplayer.home.appendingPathComponent("\(plugin).wav")
            let result = try abplayer.run(["decode", file.path, "-o", output.path])
            // Then it plays, and its warning is one line naming the plugin and the file
            #expect(result.status == 0, "\(plugin): \(result.stderr)")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(plugin): \(result.stderr)")
            #expect(lines.allSatisfy { $0.hasPrefix("abplayer: \(plugin): \(file.path): ") }, "\(plugin): \(result.stderr)")
        }
    }
}
