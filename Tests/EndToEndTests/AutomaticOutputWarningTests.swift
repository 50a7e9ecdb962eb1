import Foundation
import TestSupport
import Testing

/// The warning that no output answered comes from the player with its choice, so whichever face
/// asked for the book shows it: here a client of a daemon's socket, which never saw the daemon's
/// standard error.
@Suite struct AutomaticOutputWarningTests {
    @Test func aDaemonsClientIsToldWhenNoOutputAnsweredAndTheBookPlaysToTheFallback() throws {
        // Given no PulseAudio, no JACK, an ALSA default device that does not open, and a daemon
        // with no output named
        let fixture = try ControlFixture("no-output-warning", seconds: 6)
        defer { fixture.cleanUp() }
        let asoundrc = fixture.abplayer.home.appending(path: "asoundrc")
        try "pcm.!default { type hw card 99 }\n".write(to: asoundrc, atomically: true, encoding: .utf8)
        // (every server address points nowhere, as for `PlayerProcess`: no other test's server,
        // nor a JACK or PulseAudio started for this one, may answer)
        let daemon = try DaemonProcess(fixture, output: nil, environment: [
            "ALSA_CONFIG_PATH": "/usr/share/alsa/alsa.conf:\(asoundrc.path)",
            "PULSE_SERVER": "unix:/nonexistent/abplayer-test", "JACK_DEFAULT_SERVER": "abp_none_\(UUID().uuidString.prefix(6))",
            "JACK_NO_START_SERVER": "1",
        ])
        #expect(daemon.waitForSocket(fixture.socketPath), "\(daemon.log)")

        // When a client plays the book
        let play = try fixture.remote(["play", "Code"])

        // Then its reply says, in one line, what was tried and how to choose, and it plays to null
        let warnings = play.stderr.split(separator: "\n").filter { $0.contains("no audio output answered") }
        #expect(warnings.count == 1, "\(play.stderr)")
        #expect(warnings.first.map { $0.contains("pulse") && $0.contains("jack") && $0.contains("alsa") && $0.contains("--output") } == true)
        #expect(play.stdoutString.contains("through null"), "\(play.stdoutString)")
        #expect(try fixture.status().state == "playing")
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }
}
