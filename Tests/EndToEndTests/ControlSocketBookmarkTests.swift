import Foundation
import TestSupport
import Testing

extension OutputTests.ControlSocketTests {
    @Test func aSocketClientBookmarksJumpsAndSetsADefaultAsTheREPLDoes() throws {
        // Given a daemon playing a 12 s book into a wav file, paused 7.5 s in by a remote client
        let fixture = try ControlFixture("control-bookmarks")
        defer { fixture.cleanUp() }
        let out = fixture.abplayer.home.appending(path: "out.wav")
        let daemon = try DaemonProcess(fixture, output: "wav:\(out.path)")
        #expect(daemon.waitForSocket(fixture.socketPath), "\(daemon.log)")
        _ = try fixture.remote(["play", "Code"]).requireSuccess()
        _ = try fixture.remote(["pause"]).requireSuccess()
        _ = try fixture.remote(["seek", "0:07.5"]).requireSuccess()

        // When it bookmarks there with a note (an apostrophe in it), goes elsewhere and jumps back
        let made = try fixture.remote(["bookmark", "Don't forget"]).requireSuccess()
        let match = try #require(made.stdoutString.wholeMatch(of: /bookmarked #(\d+) at 0:07: Don't forget\n/), "\(made.stdoutString)")
        let id = String(match.1)
        _ = try fixture.remote(["seek", "0:02"]).requireSuccess()
        let jumped = try fixture.remote(["jump", id]).requireSuccess()

        // Then the reply says where it is, the status agrees, and the list has it with the same time
        #expect(jumped.stdoutString == "at bookmark #\(id) (Don't forget): 0:07 / 0:12 (62%); 'undo' goes back\n", "\(jumped.stdoutString)")
        #expect(abs(try fixture.status().itemPosition - 7.5) < 0.25)   // from 2 s: there, as heard by a paused engine
        let listed = try fixture.remote(["bookmarks"]).requireSuccess()
        #expect(listed.stdoutString == "#\(id)  0:07  user  Don't forget\n", "\(listed.stdoutString)")
        // and a default set through the socket applies to the book loaded, which has no speed of its own
        _ = try fixture.remote(["set", "speed", "1.25"]).requireSuccess()
        let status = try fixture.remote(["status"]).requireSuccess()
        #expect(status.stdoutString.contains("speed 1.25x (default)"), "\(status.stdoutString)")
        #expect(daemon.stop(SIGTERM) == 0, "\(daemon.log)")
    }
}
