import Foundation
import TestSupport
import Testing

/// The sleep timer's and the queue's commands through the real binary, as a script reads them.
/// What they do over time (fades, pauses, rewinds, repeats, shuffle, the queue's next book) is
/// tested on the test's clock: Tests/PlayerTests/SleepTimerTests.swift and
/// RepeatShuffleQueueTests.swift.
@Suite struct PlaybackModeTests {
    /// A library holding one book per entry: a folder `title` of MP3 tones (Hz, seconds each),
    /// encoded by lame from sox's sines. Cheap: a few seconds of audio each.
    static func library(_ name: String, books: [(title: String, tones: [(Double, Double)])]) throws -> (AbplayerProcess, String) {
        let abplayer = try AbplayerProcess(name)
        let library = abplayer.home.appending(path: "library.sqlite").path
        for book in books {
            let folder = abplayer.home.appending(path: book.title)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (index, (frequency, seconds)) in book.tones.enumerated() {
                let wav = folder.appending(path: "tone.wav").path
                let mp3 = folder.appending(path: String(format: "%02d.mp3", index + 1)).path
                try Command.run("sox", ["-n", "-r", "44100", "-c", "2", wav, "synth", "\(seconds)", "sine", "\(frequency)", "vol", "0.5"]).requireSuccess()
                try Command.run("lame", ["--quiet", "--nohist", "-b", "192", wav, mp3]).requireSuccess()
                try FileManager.default.removeItem(atPath: wav)
            }
            _ = try abplayer.run(["import", "--library", library, folder.path]).requireSuccess()
        }
        // The tests here hear the volume stage's levels (fades): the books are played as recorded.
        _ = try abplayer.run(["-c", "set loudness off", "--library", library]).requireSuccess()
        return (abplayer, library)
    }

    // MARK: Sleep timer

    @Test func plusFiveMinutesExtendsAndCycleStepsThroughThePresets() throws {
        let (abplayer, library) = try Self.library("sleep-extend", books: [("Tone", [(440, 3)])])

        // When a script sets 10 minutes, adds 5, then cycles from off
        let script = "play Tone; sleep 10m; sleep +5m; sleep; sleep off; sleep cycle; sleep cycle; sleep cycle; sleep cycle; sleep cycle; sleep cycle; status --json; sleep bogus; sleep"
        let result = try abplayer.run(["-c", script, "--output", "null", "--library", library])

        // Then about 15 minutes are left; cycle goes 15m, 30m, 45m, 60m, chapter, off; the bad
        // argument is one line and the next command still ran
        let lines = result.stdoutString.split(separator: "\n").map(String.init)
        let timer = lines.filter { $0.hasPrefix("sleep timer: ") }.map { String($0.dropFirst("sleep timer: ".count)) }
        #expect(timer.count == 11, "\(lines)")
        guard timer.count == 11 else { return }
        #expect(timer[1].hasPrefix("14:5") || timer[1] == "15:00 left", "\(timer[1])")
        #expect(timer[2].hasPrefix("14:5") || timer[2] == "15:00 left")
        #expect(timer[3] == "off")
        #expect(timer[4...8].map { $0.prefix(2) } == ["15", "30", "45", "1:", "en"], "\(timer)")
        #expect(timer[8] == "end of chapter")
        #expect(timer[9] == "off")
        #expect(timer[10] == "off")
        #expect(result.status != 0)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains("'bogus'"))
    }

    // MARK: Queue

    @Test func theQueueIsReorderedAndSurvivesARestart() throws {
        let (abplayer, library) = try Self.library("queue-edit", books: [("Alpha", [(440, 1)]), ("Beta", [(550, 1)]), ("Gamma", [(660, 1)])])

        // When three books are queued, the third moved first and the second removed, plus two mistakes
        let edit = try abplayer.run(["-c", "queue add Alpha; queue add Beta; queue add Gamma; queue mv 3 1; queue rm 2; queue rm 7; queue add Nothing",
                                     "--library", library])
        // and the queue is listed by another run
        let listed = try abplayer.run(["-c", "queue", "--library", library]).requireSuccess()

        // Then the removal says the place and the book removed (Gamma, Alpha, Beta: 2 is Alpha)
        #expect(edit.stdoutString.split(separator: "\n").contains("removed 2. Alpha from the queue"), "\(edit.stdoutString)")
        // and the queue holds Gamma then Beta; each mistake was one line
        #expect(listed.stdoutString.split(separator: "\n").map { $0.split(separator: "\t").last.map(String.init) ?? "" } == ["Gamma", "Beta"],
                "\(listed.stdoutString)")
        #expect(edit.status != 0)
        let errors = edit.stderr.split(separator: "\n")
        #expect(errors.count == 2, "\(edit.stderr)")
        #expect(errors.first?.contains("1-2") == true)
        #expect(errors.last?.contains("Nothing") == true)
    }
}
