import Foundation
import TestSupport
import Testing

extension OutputTests.JackOutputTests {
    /// The JACK server killed under a 44.1 kHz book, 20 times. The resampler (44.1 -> 48 kHz)
    /// now and then hands the ring more than it had room for, so the decoder thread sometimes
    /// waits inside a write for the sink to take audio; a server that dies then must not leave
    /// it waiting for good (6 of 47 such runs hung before, ignoring SIGTERM).
    @Test func aKilledServerIsReportedAndSigtermEndsThePlayerEveryTime() async throws {
        // Given a private JACK server at 48 kHz and a 30 s 44.1 kHz book
        let server = try JackServer()
        let mp3 = try Fixtures.mp3(seconds: 30, vbr: true)
        let home = try BuildProducts.temporaryDirectory("jack-killed")
        let clock = ContinuousClock()
        var failures: [String] = []
        for round in 0..<20 {
            if round > 0 { try server.start() }
            let player = try PlayerProcess(["--output", "jack", mp3.path], environment: server.environment, home: home)
            // When it is heard playing, and the server is killed a varying moment later (the
            // moments step through a JACK period and more, to land in every phase of the writer)
            guard await waitForPlace(player, atLeast: 44100 / 4, timeout: 20) else {
                failures.append("round \(round): never played; stderr: \(player.stderr)")
                _ = await player.waitForExit(timeout: 0)
                continue
            }
            await letRealTimePass(seconds: Double(13 * (round % 9)) / 1000, because: "the kill lands a varying moment into playback, in every phase of the writer")
            server.stop()
            // Then it says the output is lost (it is not stuck writing to a sink that is gone)...
            let lost = await player.waitForStderr("output lost", timeout: 10)
            // ...and SIGTERM ends it within a second. Measured from the signal to the exit as
            // Foundation saw it (not when this task polled); 3 s allowed: a loaded 2-core
            // machine may take a while to schedule the player and reap it.
            let signalled = clock.now
            player.signal(SIGTERM)
            let status = await player.waitForExit(timeout: 10)
            let took = (player.exited.value ?? clock.now) - signalled
            if !lost || status != 128 + SIGTERM || took > .seconds(3) {
                failures.append("round \(round): lost reported \(lost), exit \(status.map(String.init) ?? "none (hung, killed)") after \(took); stderr: \(player.stderr)")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of 20 rounds failed:\n\(failures.joined(separator: "\n"))")
    }
}
