import Foundation
import TestSupport
import Testing

/// Event hooks run wherever a player runs: `listen` (to the end of the book, whose `finished`
/// hook still starts as it exits) and `--daemon` (driven through its socket).
@Suite(.serialized) struct HookModeTests {
    @Test func listenRunsTheStartedAndFinishedHooksOfTheBookItPlaysToItsEnd() async throws {
        // Given a 2 s book, and recording hooks for its start and its end
        let fixture = try ControlFixture("hooks-listen", seconds: 2)
        defer { fixture.cleanUp() }
        let hooks = try HookFolder(fixture.abplayer)
        try hooks.record(["started", "finished"])

        // When `listen` plays it to its end (and so exits)
        let listen = try ListeningProcess(fixture.abplayer, arguments: ["listen", "--output", "null", "--library", fixture.library, "Code"],
                                          environment: ["XDG_RUNTIME_DIR": fixture.runtime])
        let status = await listen.waitForExit(timeout: .seconds(60))

        // Then both hooks ran, the last one started as the player ended
        #expect(status == 0, "\(listen.errorOutput)")
        let started = try #require(await offThePool { hooks.waitFor("started") }, "\(listen.errorOutput)")
        let finished = try #require(await offThePool { hooks.waitFor("finished") }, "\(listen.errorOutput)")
        #expect(started["BOOK"] == "Code" && started["STATE"] == "playing")
        #expect(finished["STATE"] == "finished" && abs((finished.number("POSITION") ?? 0) - 2) < 0.3, "\(finished.variables)")
    }

    @Test func aDaemonRunsTheHooksOfWhatItsClientsAsk() throws {
        // Given a daemon on a 12 s book, and recording hooks for playing and pausing
        let fixture = try ControlFixture("hooks-daemon")
        defer { fixture.cleanUp() }
        let hooks = try HookFolder(fixture.abplayer)
        try hooks.record(["started", "paused"])
        let daemon = try DaemonProcess(fixture, output: "null")
        defer { _ = daemon.stop() }
        #expect(daemon.waitForSocket(fixture.socketPath), "\(daemon.log)")

        // When a client plays the book, then pauses it
        _ = try fixture.remote(["play", "Code"]).requireSuccess()
        let started = try #require(hooks.waitFor("started"), "\(daemon.log)")
        _ = try fixture.remote(["pause"]).requireSuccess()

        // Then the daemon ran both hooks
        let paused = try #require(hooks.waitFor("paused"), "\(daemon.log)")
        #expect(started["BOOK"] == "Code" && paused["STATE"] == "paused")
    }
}
