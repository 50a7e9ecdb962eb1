import Foundation
import TestSupport
import Testing

extension OutputTests.ControlSocketTests {
    @Test func aSocketClientEditsAndDetectsChaptersWhileABookPlaysOn() throws {
        // Given a daemon playing a 30 s book, and a narrated book of five chapters imported through the socket
        let fixture = try ControlFixture("control-chapters", seconds: 30)
        defer { fixture.cleanUp() }
        let daemon = try DaemonProcess(fixture, output: "null")
        #expect(daemon.waitForSocket(fixture.socketPath), "\(daemon.log)")
        let narration = try Fixtures.narration(chapters: 5, gapSeconds: 3, pauseSeconds: 0.4)
        let folder = fixture.abplayer.home.appending(path: "Told")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: narration.url, to: folder.appending(path: "told.mp3"))
        _ = try fixture.remote(["import", folder.path]).requireSuccess()
        _ = try fixture.remote(["play", "Code"]).requireSuccess()

        // When the client adds a chapter to the book playing
        let added = try fixture.remote(["chapter", "add", "0:05", "Middle"]).requireSuccess()
        // Then the reply says so and the book's chapters are the client's
        #expect(added.stdoutString == "added chapter 1 of 1 at 0:05: Middle (your chapters; 'chapter rm 1' removes it)\n", "\(added.stdoutString)")
        let listed = try fixture.remote(["chapters"]).requireSuccess()
        #expect(listed.stdoutString.hasPrefix("Code: 1 chapter (your chapters)\n"), "\(listed.stdoutString)")

        // When it asks for the other book's chapters to be detected without --yes: listed, not stored, since it cannot answer
        let asked = try fixture.remote(["chapters", "detect", "Told"]).requireSuccess()
        #expect(asked.stdoutString.hasSuffix("not stored: 'chapters detect --yes' stores them\n"), "\(asked.stdoutString)")
        // and with --yes: stored, while the first book plays on
        let stored = try fixture.remote(["chapters", "detect", "--yes", "Told"]).requireSuccess()
        #expect(stored.stdoutString.contains("Told: stored 5 chapters as yours"), "\(stored.stdoutString)")
        let status = try fixture.status()
        #expect(status.book == "Code" && status.state == "playing")
        let told = try fixture.remote(["chapters", "Told"]).requireSuccess()
        #expect(told.stdoutString.hasPrefix("Told: 5 chapters (your chapters)\n"), "\(told.stdoutString)")
        #expect(daemon.stop(SIGTERM) == 0, "\(daemon.log)")
    }
}
