import Foundation
import PlayerCore
import PluginHost
import TestSupport
import Testing

/// What the FIFO output is for: Snapcast. A private snapserver (loopback only, ports of its own,
/// no avahi) reads the pipe the engine plays to, and a snapclient of it plays into a file.
@Suite struct FifoSnapserverTests {
    @Test func snapserverTakesTheStreamAndItsClientPlaysEverySecondInOrder() throws {
        // Given a snapserver reading a pipe, idle, and a client of it
        let server = try SnapServer()
        let client = try server.client()
        #expect(FifoSinkTests.wait(timeout: .seconds(15)) { (try? server.connectedClients()) == 1 }, "\(server.log)")
        #expect(try server.streamStatus() == "idle")
        // When the engine plays a 6 s file to the fifo output on that pipe
        let registry = try FifoSinkTests.registry()
        let mp3 = try Fixtures.mp3(seconds: 6, vbr: false)
        let engine = try FifoSinkTests.engine(registry, pipe: server.pipe.path)
        engine.load([mp3.path])
        // Then snapserver sees the stream playing while it plays, and idle once it ended
        #expect(FifoSinkTests.wait(timeout: .seconds(15)) { (try? server.streamStatus()) == "playing" }, "\(server.log)")
        #expect(FifoSinkTests.wait(timeout: .seconds(60)) { engine.state == .stopped })
        engine.shutdown()
        #expect(FifoSinkTests.wait(timeout: .seconds(15)) { (try? server.streamStatus()) == "idle" })
        // and its client played every second, in order, without a gap (it plays the stream 1 s
        // behind the server, then silence once the stream ended)
        #expect(FifoSinkTests.wait(timeout: .seconds(15)) { Self.silenceAfterSound(client.samples()) > 0.5 })
        let track = SecondTrack(client.samples(), channels: 2, rate: 48000)
        // (a second cut by one 50 ms window of silence is one second heard: "1@2.05+0.05
        // _@2.10+0.05 1@2.20+1.00" beside stress-ng; the gap check below bounds that silence)
        #expect(track.distinctSeconds == [0, 1, 2, 3, 4, 5], "\(track)")
        #expect(track.gaps(longerThan: 0.05).isEmpty, "\(track)")
    }

    /// Seconds of silence at the end of 48 kHz stereo, after some sound (0 with no sound at all).
    static func silenceAfterSound(_ samples: [Float]) -> Double {
        guard let last = samples.lastIndex(where: { abs($0) > 0.01 }) else { return 0 }
        return Double((samples.count - 1 - last) / 2) / 48000
    }
}
