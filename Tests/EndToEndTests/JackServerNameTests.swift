import Foundation
import TestSupport
import Testing

extension OutputTests.JackOutputTests {
    @Test func withNoServerTheLineNamesTheServerTriedFromJackDefaultServer() async throws {
        // Given JACK_DEFAULT_SERVER naming a server that is not running
        let name = "abp_absent_\(UUID().uuidString.prefix(6).lowercased())"
        let mp3 = try Fixtures.mp3(seconds: 3, vbr: true)
        // When abplayer is asked to play to JACK without naming a server
        let player = try PlayerProcess(["--output", "jack", mp3.path], environment: ["JACK_DEFAULT_SERVER": name],
                                       home: try BuildProducts.temporaryDirectory("jack-absent"))
        let status = await player.waitForExit(timeout: 30)
        // Then it fails with one line naming that server (not "(default)")
        #expect(status == 1, "stderr: \(player.stderr)")
        let lines = player.stderr.split(separator: "\n").filter { $0.hasPrefix("abplayer:") }
        #expect(lines.count == 1 && lines[0].contains("'\(name)'") && !lines[0].contains("(default)"), "\(player.stderr)")
    }
}
