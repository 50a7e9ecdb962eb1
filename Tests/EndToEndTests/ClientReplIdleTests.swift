import Foundation
import TestSupport
import Testing

/// A second terminal's prompt left alone longer than the control socket's idle timeout: the
/// player closes its silent connection, and the next line is still answered (the prompt connects
/// again), not taken for the player having stopped.
@Suite struct ClientReplIdleTests {
    /// The sockets `pid` has open (its listener, its clients' connections).
    static func sockets(of pid: Int32) -> Int {
        let links = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        return links.count { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)"))?.hasPrefix("socket:") == true }
    }

    @Test func aClientPromptSilentPastTheIdleTimeoutIsStillAnswered() throws {
        // Given a daemon that closes command connections silent for 1 s, and a second prompt
        // (its lines on a pipe) whose first line was answered
        let fixture = try ControlFixture("client-idle", seconds: 4)
        defer { fixture.cleanUp() }
        let daemon = try DaemonProcess(fixture, output: "null", environment: ["ABPLAYER_CONTROL_IDLE_SECONDS": "1"])
        #expect(daemon.waitForSocket(fixture.socketPath), "\(daemon.log)")
        let listening = Self.sockets(of: daemon.process.processIdentifier)
        let client = try ReplPipeProcess(fixture.abplayer, arguments: ["--library", fixture.library], environment: fixture.environment)
        defer { _ = client.quit() }
        client.send("ls")
        #expect(client.waitForLine(containing: "Code") != nil, "\(client.stdoutLines) \(client.stderrLines)")

        // When the player has closed its connection for its silence
        #expect(waitUntil(within: 30) { Self.sockets(of: daemon.process.processIdentifier) == listening })

        // Then its next line is answered all the same, and nothing says the player stopped
        let before = client.stdoutLines.count
        client.send("ls")
        #expect(client.waitForLine(containing: "Code", after: before) != nil, "\(client.stdoutLines) \(client.stderrLines)")
        #expect(!client.stderrLines.contains { $0.contains("stopped") }, "\(client.stderrLines)")
        #expect(!client.process.hasEnded)
    }
}
