import Foundation
import TestSupport
import Testing

/// The REPL on a terminal while books play: notices above the line being typed, a private
/// PulseAudio receiving the book, and speed 2 halving the wall time.
extension ReplTerminalTests {
    /// A library holding one book "Tone" of one time-coded MP3 (second k is 300 + 25k Hz).
    static func toneLibrary(_ name: String, seconds: Int) throws -> (AbplayerProcess, String) {
        let abplayer = try AbplayerProcess(name)
        let folder = abplayer.home.appending(path: "Tone")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try Fixtures.mp3(seconds: seconds, vbr: false), to: folder.appending(path: "tone.mp3"))
        let library = abplayer.home.appending(path: "library.sqlite").path
        _ = try abplayer.run(["import", "--library", library, folder.path]).requireSuccess()
        return (abplayer, library)
    }

    /// The screen with wrapped lines joined.
    static func joinedScreen(_ terminal: TmuxTerminal) -> String {
        (try? terminal.tmux(["capture-pane", "-p", "-J"]))?.stdoutString ?? ""
    }

    @Test func aNoticeArrivingWhileTypingGoesAboveTheTypedLine() throws {
        // Given a 3 s book playing, and the listener halfway through typing a command
        let (abplayer, library) = try Self.toneLibrary("repl-notice", seconds: 3)
        let terminal = try Self.terminal(abplayer, library: library, name: "notice")
        defer { terminal.stop() }
        #expect(terminal.waitFor("abplayer />") != nil, "\(terminal.screen())")
        try terminal.send("play Tone", "Enter")
        #expect(terminal.waitFor("playing #1 Tone") != nil, "\(terminal.screen())")
        try terminal.send("stätu")

        // When the book ends (a notice from the engine)
        let screen = try #require(terminal.waitFor("Tone: the end"), "\(terminal.screen())")

        // Then the notice is a line of its own, and below it the prompt shows what was typed
        let lines = screen.split(separator: "\n").map(String.init)
        let notice = try #require(lines.firstIndex(of: "Tone: the end (finished); 'play' or space starts it again"), "\(screen)")
        #expect(lines.dropFirst(notice + 1).first == "abplayer /> stätu", "\(screen)")
        // and the typed text is still being edited: finishing it runs the command
        try terminal.send("BSpace", "BSpace", "BSpace", "atus", "Enter")
        #expect(terminal.waitFor("Tone — finished") != nil, "\(terminal.screen())")
    }

    @Test func aBookPlaysThroughPrivatePulseAudioPausesAndReportsItsPlace() async throws {
        // Given a private PulseAudio whose null sink is recorded, and the REPL playing through it
        let server = try PulseServer()
        let (abplayer, library) = try ReplTests.library("repl-pulse")
        let recording = try server.record()
        #expect(await recording.waitForMore(seconds: 0.1), "the recorder does not record")
        let terminal = try Self.terminal(abplayer, library: library, name: "pulse", output: "pulse", environment: server.environment)
        defer { terminal.stop() }
        #expect(terminal.waitFor("abplayer />") != nil, "\(terminal.screen())")

        // When the listener types `play Ender`, waits until the sink has heard the book's second
        // 1 for half a second, then pauses
        try terminal.send(#"play "Ender's Game""#, "Enter")
        let clock = ContinuousClock()
        let typed = clock.now
        #expect(terminal.waitFor("through pulse") != nil, "\(terminal.screen())")
        #expect(await waitUntil(within: 60, every: 0.25) {
            let heard = SecondTrack((try? recording.samplesSoFar()) ?? [], channels: 2, rate: 48000)
            return heard.seconds.contains(1) && heard.duration(of: 1) >= 0.5
        }, "\(terminal.screen())")
        let inputs = try Command.run("pactl", ["list", "sink-inputs"], environment: server.environment, timeout: 10)
        try terminal.send("pause", "Enter")
        let pausedAfter = (clock.now - typed).seconds
        try terminal.send("status --json", "Enter")
        let paused = try #require(Self.waitForStatus(terminal) { $0.state == "paused" }, "\(terminal.screen())")
        await letRealTimePass(seconds: 1, because: "a paused player's position must stay put as time passes")
        try terminal.send("bookmark later", "Enter", "status --json", "Enter")
        // (the bookmark's line comes before the new status: the status after it is the new one)
        let later = try #require(Self.waitForStatus(terminal, after: "bookmark 1 at") { _ in true }, "\(terminal.screen())")
        let recorded = try recording.finish()

        // Then PulseAudio has our stream, and its sink heard the book from its first second, in
        // order, at its pitch
        #expect(inputs.stdoutString.contains(#"media.name = "audiobook""#), "\(inputs.stdoutString)")
        let track = SecondTrack(recorded.samples, channels: 2, rate: recorded.rate)
        // (a loaded machine can starve the stream for a moment at the start: the sink then plays
        // a gap of silence inside a second, which splits it in two, without repeating it)
        #expect(OutputChecks.distinct(track.seconds).prefix(2) == [0, 1], "\(track)")
        #expect(track.duration(of: 0) < 1.5, "\(track)")
        // and the paused position is past the start and no later than the wall time since play
        // was typed (no lower bound from the clock: a loaded machine starts the output late, and
        // the recording above shows the book heard from its first second), and it stays put
        #expect(paused.itemPosition > 0 && paused.itemPosition <= pausedAfter + 0.1,
                "paused at \(paused.itemPosition) s, \(pausedAfter) s after play was typed")
        #expect(abs(later.itemPosition - paused.itemPosition) < 0.05, "\(paused.itemPosition) then \(later.itemPosition)")
        #expect(later.output == "pulse")
    }

    /// Waits (blocking this test's thread, up to 20 s measured) for a `status --json` line on the
    /// screen that satisfies `wanted`.
    static func waitForStatus(_ terminal: TmuxTerminal, after marker: String? = nil,
                              _ wanted: (ReplTests.StatusJSON) -> Bool) -> ReplTests.StatusJSON? {
        let clock = ContinuousClock()
        let start = clock.now
        while (clock.now - start).seconds < 20 {
            if let status = lastStatus(terminal, after: marker), wanted(status) { return status }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return nil
    }

    /// The last `status --json` line on the screen (its wrapped rows joined).
    static func lastStatus(_ terminal: TmuxTerminal, after marker: String? = nil) -> ReplTests.StatusJSON? {
        var lines = joinedScreen(terminal).split(separator: "\n")
        if let marker {
            guard let index = lines.lastIndex(where: { $0.contains(marker) }) else { return nil }
            lines = Array(lines[(index + 1)...])
        }
        return lines.last { $0.hasPrefix("{") }.flatMap {
            try? JSONDecoder().decode(ReplTests.StatusJSON.self, from: Data($0.utf8))
        }
    }

    @Test func speedTwoHalvesTheWallTimeAndKeepsThePitch() throws {
        // Given an 8 s tone book set to speed 2, and the REPL playing in real time into a WAV file
        let (abplayer, library) = try Self.toneLibrary("repl-speed", seconds: 8)
        _ = try abplayer.run(["book", "settings", "--library", library, "Tone", "--speed", "2"]).requireSuccess()
        let output = abplayer.home.appending(path: "speed2.wav")
        let terminal = try Self.terminal(abplayer, library: library, name: "speed", output: "wav:\(output.path)")
        defer { terminal.stop() }
        #expect(terminal.waitFor("abplayer />") != nil, "\(terminal.screen())")

        // When it plays to the end
        let clock = ContinuousClock()
        let started = clock.now
        try terminal.send("play Tone", "Enter")
        _ = try #require(terminal.waitFor("Tone: the end", timeout: 30), "\(terminal.screen())")
        let wall = (clock.now - started).seconds
        terminal.stop() // waits for abplayer to quit, closing the WAV file

        // Then it played in real time, not faster (the output is paced: at least the 4 s it
        // wrote; a loaded machine takes longer, so no upper bound: the 4 s written say the speed)
        #expect(wall > 0.4 * 8, "played 8 s at speed 2 in \(wall) s")
        // and what was written lasts 4 s, each half-second at the pitch of its source second
        let wav = try WavFile.read(output)
        let seconds = Double(wav.frameCount) / Double(wav.rate)
        #expect(abs(seconds - 4) < 0.25, "wrote \(seconds) s")
        for half in 0..<8 {
            let expected = TimeCodedSignal.frequency(ofSecond: half)
            let length = wav.rate / 5
            let from = Int((Double(half) * 0.5 + 0.25) * Double(wav.rate)) - length / 2
            let measured = AudioAnalysis.dominantFrequency(wav.samples, channels: wav.channels, rate: wav.rate, from: from, count: length)
            #expect(abs(measured - expected) / expected < 0.02, "half-second \(half): \(measured) Hz, source \(expected) Hz")
        }
    }
}
