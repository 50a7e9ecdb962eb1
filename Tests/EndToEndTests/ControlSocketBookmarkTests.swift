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

        // When it bookmarks there with a note (an apostrophe in it), then earlier in the book, at 0:02
        let made = try fixture.remote(["bookmark", "Don't forget"]).requireSuccess()
        _ = try fixture.remote(["seek", "0:02"]).requireSuccess()
        let earlier = try fixture.remote(["bookmark", "start"]).requireSuccess()

        // Then each reply says the number it has in the list by time in the book: the first made
        // was 1, the earlier one made after it is 1, and the list numbers them so
        #expect(made.stdoutString == "bookmark 1 at 0:07: Don't forget\n", "\(made.stdoutString)")
        #expect(earlier.stdoutString == "bookmark 1 at 0:02: start\n", "\(earlier.stdoutString)")
        let listed = try fixture.remote(["bookmarks"]).requireSuccess()
        #expect(listed.stdoutString == "1  0:02  start\n2  0:07  Don't forget\n", "\(listed.stdoutString)")

        // When it jumps to 2
        let jumped = try fixture.remote(["jump", "2"]).requireSuccess()
        // Then the reply says where it is, and the status agrees
        #expect(jumped.stdoutString == "at bookmark 2 (Don't forget): 0:07 / 0:12 (62%); 'undo' goes back\n", "\(jumped.stdoutString)")
        #expect(abs(try fixture.status().itemPosition - 7.5) < 0.25)   // from 2 s: there, as heard by a paused engine
        // and --all lists 1 and 2 as they were, among the automatic ones (the seeks', the jump's)
        // numbered a1, a2, a3 apart
        let all = try fixture.remote(["bookmarks", "--all"]).requireSuccess().stdoutString.split(separator: "\n")
        #expect(all.filter { !$0.hasPrefix("a") } == listed.stdoutString.split(separator: "\n"), "\(all)")
        #expect(all.filter { $0.hasPrefix("a") }.map { $0.prefix(while: { $0 != " " }) } == ["a1", "a2", "a3"], "\(all)")
        // and a default set through the socket applies to the book loaded, which has no speed of its own
        _ = try fixture.remote(["set", "speed", "1.25"]).requireSuccess()
        let status = try fixture.remote(["status"]).requireSuccess()
        #expect(status.stdoutString.contains("speed 1.25x (default)"), "\(status.stdoutString)")
        #expect(daemon.stop(SIGTERM) == 0, "\(daemon.log)")
    }
}
