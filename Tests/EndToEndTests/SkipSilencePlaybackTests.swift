import Foundation
import TestSupport
import Testing

/// Skip silence through the real binary: a book of espeak-ng narration with silences of known
/// lengths made by sox, set with `book settings --skip-silence`, played by `listen` to a WAV file;
/// the time saved read back from the library file and from `stats`; `status` while it plays.
@Suite struct SkipSilencePlaybackTests {
    static let silences = [0.3, 1.0, 2.5, 5.0]
    static let kept = 0.25

    /// A library holding the narration as the book "Narration".
    static func library(_ name: String, repeats: Int = 1) throws -> (AbplayerProcess, String, wav: URL, NarrationLayout) {
        let (flac, wav, layout) = try Fixtures.narration(silences: silences, repeats: repeats)
        let abplayer = try AbplayerProcess(name)
        let folder = abplayer.home.appending(path: "Narration")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: flac, to: folder.appending(path: "narration.flac"))
        let library = abplayer.home.appending(path: "library.sqlite").path
        _ = try abplayer.run(["import", "--library", library, folder.path]).requireSuccess()
        // Played as recorded: the output is compared with the source sample by sample, and
        // evening out (on by default) would scale it and hold its peaks.
        _ = try abplayer.run(["book", "settings", "--library", library, "Narration", "--loudness", "off"]).requireSuccess()
        return (abplayer, library, wav, layout)
    }

    /// Runs of samples under -66 dBFS of at least `shortest` seconds, in seconds.
    static func quietRuns(_ samples: [Float], rate: Int, shortest: Double) -> [(start: Int, seconds: Double)] {
        var runs: [(Int, Double)] = []
        var start = -1
        for index in 0...samples.count {
            if index < samples.count, abs(samples[index]) < 0.0005 {
                if start < 0 { start = index }
            } else {
                if start >= 0, Double(index - start) >= shortest * Double(rate) { runs.append((start, Double(index - start) / Double(rate))) }
                start = -1
            }
        }
        return runs
    }

    @Test func longSilencesBecomeShortPausesTheSpeechIsUntouchedAndTheTimeSavedIsStored() throws {
        // Given a book of narration with silences of 0.3, 1, 2.5 and 5 s, skip silence on for it
        let (abplayer, library, sourceWAV, layout) = try Self.library("skip-silence-listen")
        let set = try abplayer.run(["book", "settings", "--library", library, "Narration", "--skip-silence", "on"]).requireSuccess()
        #expect(set.stdoutString.contains("skip silence on (silences of 600 ms or more)"), "\(set.stdoutString)")
        // When it plays to the end, to a WAV file as fast as it decodes
        let output = abplayer.home.appending(path: "heard.wav")
        let played = try abplayer.run(["listen", "--library", library, "--output", "wav:\(output.path),paced=false", "Narration"], timeout: 60)
        #expect(played.status == 0, "\(played.stderr)")
        let heard = try WavFile.read(output)
        let source = try WavFile.read(sourceWAV)
        #expect(heard.rate == layout.rate)

        // Then the silence of 0.3 s is whole, the longer ones are pauses of 0.25 s (within 10 ms)
        let runs = Self.quietRuns(heard.samples, rate: heard.rate, shortest: 0.2)
        let expected = Self.silences.map { $0 < 0.6 ? $0 : Self.kept }
        #expect(runs.count == expected.count, "quiet runs heard: \(runs.map(\.seconds))")
        for (run, target) in zip(runs, expected) { #expect(abs(run.seconds - target) <= 0.01, "a pause of \(run.seconds) s, expected \(target) s") }

        // and the time saved is stored with the listening session, and the output is the source
        // less exactly that
        let stored = try Command.run("sqlite3", [library, "SELECT total(silenceSkippedSeconds) FROM listeningSession"]).requireSuccess()
        let savedSeconds = try #require(Double(stored.stdoutString.trimmingCharacters(in: .whitespacesAndNewlines)))
        let expectedSaved = Self.silences.filter { $0 >= 0.6 }.reduce(0) { $0 + $1 - Self.kept }
        #expect(abs(savedSeconds - expectedSaved) < 0.03, "saved \(savedSeconds) s, inserted silences make \(expectedSaved) s")
        #expect(abs(heard.frameCount - (source.frameCount - Int((savedSeconds * Double(layout.rate)).rounded()))) <= 1,
                "heard \(heard.frameCount) frames of \(source.frameCount), \(savedSeconds) s cut")

        // and each phrase is heard as spoken (correlation with the source about 1), where it
        // should be: earlier by what was cut before it
        var cutBefore = 0.0
        for (index, phrase) in layout.speech.enumerated() {
            let spoken = Array(source.samples[phrase.start..<(phrase.start + phrase.frames)])
            let guess = phrase.start - Int(cutBefore * Double(layout.rate))
            let window = Array(heard.samples[max(0, guess - 660)..<min(heard.samples.count, guess + phrase.frames + 660)])
            let lag = AudioAnalysis.bestLag(window, spoken, maxLag: 660 * 2)
            let at = max(0, guess - 660) + lag
            let found = Array(heard.samples[at..<min(heard.samples.count, at + phrase.frames)])
            let correlation = AudioAnalysis.correlation(found, spoken)
            #expect(correlation > 0.999, "phrase \(index): correlation \(correlation)")
            if index < Self.silences.count, Self.silences[index] >= 0.6 { cutBefore += Self.silences[index] - Self.kept }
        }

        // and nothing clicks where silences were cut: no step between samples inside a pause
        for run in runs {
            let pause = heard.samples[run.start..<(run.start + Int(run.seconds * Double(layout.rate)))]
            let step = zip(pause, pause.dropFirst()).map { abs($0 - $1) }.max() ?? 0
            #expect(step < 0.001, "a step of \(step) in the pause at \(run.start)")
        }

        // and `stats` says how much was skipped, for the book and in total
        let stats = try abplayer.run(["stats", "--library", library]).requireSuccess().stdoutString
        let clock = "0:0\(Int(savedSeconds))"
        #expect(stats.contains("silence skipped: \(clock)  Narration"), "\(stats)")
        #expect(stats.contains("silence skipped: \(clock) in total"), "\(stats)")
    }

    struct StatusJSON: Decodable {
        let bookPosition: Double?
        let bookDuration: Double?
        let timeLeft: Double?
        let speed: Double
        let skipSilenceMs: Int?
        let silenceSkippedFraction: Double?
    }

    @Test func statusSaysTheTimeLeftAsItWillBeHeard() throws {
        // Given a book of about a minute of narration and silences, at speed 2 with skip silence on
        let (abplayer, library, _, _) = try Self.library("skip-silence-status", repeats: 3)
        _ = try abplayer.run(["book", "settings", "--library", library, "Narration", "--skip-silence", "on", "--speed", "2"]).requireSuccess()
        // When it has played in real time past the 30 s of source the estimate needs
        let repl = try ReplPipeProcess(abplayer, arguments: ["--output", "null", "--library", library])
        repl.send("play Narration")
        var status: StatusJSON?
        let deadline = ContinuousClock.now + .seconds(90)
        while ContinuousClock.now < deadline {
            let before = repl.stdoutLines.count
            repl.send("status --json")
            guard let line = repl.waitForLine(containing: "{\"book\"", after: before, timeout: 10),
                  let read = try? JSONDecoder().decode(StatusJSON.self, from: Data(line.utf8)) else { continue }
            status = read
            if read.silenceSkippedFraction != nil { break }
        }
        let before = repl.stdoutLines.count
        repl.send("status")
        let line = repl.waitForLine(containing: " left at ", after: before)
        #expect(repl.quit() == 0)

        // Then the time left is the source time left, less the fraction cut so far, at speed 2
        let found = try #require(status)
        let fraction = try #require(found.silenceSkippedFraction, "no estimate before the deadline")
        #expect(found.skipSilenceMs == 600)
        #expect(fraction > 0.1 && fraction < 0.6, "fraction \(fraction)")
        let sourceLeft = try #require(found.bookDuration) - (try #require(found.bookPosition))
        let timeLeft = try #require(found.timeLeft)
        #expect(abs(timeLeft - sourceLeft * (1 - fraction) / 2) < 0.01, "time left \(timeLeft) s for \(sourceLeft) s of source")
        // and the status line says it skips silence
        #expect(line?.hasSuffix("left at 2x skipping silence") == true, "\(line ?? "no status line")")
    }
}

extension SkipSilencePlaybackTests {
    @Test func aDefaultAppliesToABookWithoutItsOwnAndTheBooksOwnWins() throws {
        // Given the listener's default: skip silences of 800 ms or more
        let (abplayer, library, _, _) = try Self.library("skip-silence-default")
        let set = try abplayer.run(["-c", "set silence 800", "--output", "null", "--library", library]).requireSuccess()
        #expect(set.stdoutString.contains("default silence skip on (silences of 800 ms or more)"), "\(set.stdoutString)")
        // When the book, with no setting of its own, plays
        let first = try abplayer.run(["-c", "play Narration; status --json; silence", "--output", "null", "--library", library]).requireSuccess()
        // Then the default applies, and `silence` says whose it is
        let status = try #require(first.stdoutString.split(separator: "\n").first { $0.hasPrefix("{") })
        #expect(try JSONDecoder().decode(StatusJSON.self, from: Data(status.utf8)).skipSilenceMs == 800)
        #expect(first.stdoutString.contains("skip silence on (silences of 800 ms or more) (default)"), "\(first.stdoutString)")
        // When the book is given its own setting (off), it wins in the next run too
        _ = try abplayer.run(["-c", "play Narration; silence skip off", "--output", "null", "--library", library]).requireSuccess()
        let own = try abplayer.run(["-c", "play Narration; silence", "--output", "null", "--library", library]).requireSuccess()
        #expect(own.stdoutString.contains("skip silence off · silence skipped"), "\(own.stdoutString)")
        let settings = try abplayer.run(["book", "settings", "--library", library, "Narration"]).requireSuccess()
        #expect(settings.stdoutString.hasSuffix(", skip silence off, loudness off\n"), "\(settings.stdoutString)")
        // When `book settings --skip-silence default` clears it, the default applies again
        let cleared = try abplayer.run(["book", "settings", "--library", library, "Narration", "--skip-silence", "default"]).requireSuccess()
        #expect(cleared.stdoutString.hasSuffix(", skip silence on (silences of 800 ms or more) (default), loudness off\n"), "\(cleared.stdoutString)")
        // and `unset silence` turns the default off
        let unset = try abplayer.run(["-c", "unset silence; set", "--output", "null", "--library", library]).requireSuccess()
        #expect(unset.stdoutString.contains("silence skip off (not set)"), "\(unset.stdoutString)")
    }
}
