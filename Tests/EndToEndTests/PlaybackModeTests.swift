import Foundation
import TestSupport
import Testing

/// The sleep timer, auto-rewind, the queue, repeat and shuffle, through the real binary: the
/// REPL reads commands from a pipe, the test lets real time pass between them, and what was
/// played is read back from the wav output, the status and the library.
@Suite struct PlaybackModeTests {
    struct BookmarkJSON: Decodable {
        let frame: Int64
        let kind: String
    }

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

    static func bookmarks(_ abplayer: AbplayerProcess, library: String, book: String) throws -> [BookmarkJSON] {
        let result = try abplayer.run(["bookmarks", "--all", "--json", "--library", library, book]).requireSuccess()
        return try result.stdoutString.split(separator: "\n").map { try JSONDecoder().decode(BookmarkJSON.self, from: Data($0.utf8)) }
    }

    static func books(_ abplayer: AbplayerProcess, library: String) throws -> [ListenTests.BookJSON] {
        let result = try abplayer.run(["books", "--json", "--library", library]).requireSuccess()
        return try result.stdoutString.split(separator: "\n").map { try JSONDecoder().decode(ListenTests.BookJSON.self, from: Data($0.utf8)) }
    }

    /// RMS of the left channel over [from, from + seconds).
    static func rms(_ wav: WavFile, from: Double, seconds: Double) -> Double {
        AudioAnalysis.rms(wav.samples, channels: wav.channels, from: Int(from * Double(wav.rate)), count: Int(seconds * Double(wav.rate)))
    }

    static func frequency(_ wav: WavFile, at: Double, seconds: Double = 0.5) -> Double {
        AudioAnalysis.dominantFrequency(wav.samples, channels: wav.channels, rate: wav.rate,
                                        from: Int((at - seconds / 2) * Double(wav.rate)), count: Int(seconds * Double(wav.rate)))
    }

    // MARK: Sleep timer

    @Test func aTimedSleepFadesOverTenSecondsPausesAndBookmarksThePlace() throws {
        // Given a 16 s tone playing to a wav file
        let (abplayer, library) = try Self.library("sleep-fade", books: [("Tone", [(440, 16)])])
        let out = abplayer.home.appending(path: "out.wav")
        let repl = try ReplPipeProcess(abplayer, arguments: ["--library", library, "--output", "wav:\(out.path)"])

        // When a 12 s sleep timer is set as it starts
        repl.send("play Tone")
        repl.send("sleep 0:12")
        let set = repl.waitForLine(containing: "sleep timer: 0:1")
        let paused = repl.waitForLine(containing: "sleep timer: paused at", timeout: 40)
        let status = repl.status()
        #expect(repl.quit() == 0, "\(repl.stderrLines)")

        // Then it paused by itself about 12 s in, with a bookmark of kind sleepTimer there
        #expect(set != nil && paused != nil, "\(repl.stdoutLines)")
        #expect(status?.state == "paused")
        #expect(status?.sleep == nil)
        let wav = try WavFile.read(out)
        let played = Double(wav.samples.count / wav.channels) / Double(wav.rate)
        #expect(abs(played - 12) < 0.4, "played \(played) s")
        let marks = try Self.bookmarks(abplayer, library: library, book: "Tone").filter { $0.kind == "sleepTimer" }
        #expect(marks.count == 1)
        if let mark = marks.first { #expect(abs(Double(mark.frame) / 44100 - played) < 0.3, "bookmark at \(mark.frame)") }
        let saved = try #require(try Self.books(abplayer, library: library).first?.positionSeconds)
        #expect(abs(saved - played) < 0.3, "saved \(saved) s, played \(played) s")
        // and what was heard is full for the first 2 s, then falls (linearly in amplitude) over
        // the last 10 s to silence
        let full = Self.rms(wav, from: 0.5, seconds: 1)
        #expect(abs(full - 0.354) < 0.05, "full level \(full)")
        let envelope = stride(from: played - 10, to: played - 0.5, by: 1).map { Self.rms(wav, from: $0, seconds: 0.5) / full }
        for (index, level) in envelope.enumerated() {
            let expected = 1 - (Double(index) + 0.25) / 10
            #expect(abs(level - expected) < 0.12, "at \(index) s into the fade: \(level), expected \(expected)")
        }
        #expect(Self.rms(wav, from: played - 0.2, seconds: 0.2) < 0.02)
    }

    @Test func sleepChapterStopsExactlyAtTheChapterBoundary() throws {
        // Given a book of one 8 s MP3 with chapters at 0 and 3 s
        let abplayer = try AbplayerProcess("sleep-chapter")
        let library = abplayer.home.appending(path: "library.sqlite").path
        let folder = abplayer.home.appending(path: "Chaptered")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let source = try Fixtures.withChapters(try Fixtures.mp3(seconds: 8, vbr: false),
                                               chapters: [(startSeconds: 0, title: "One"), (startSeconds: 3, title: "Two")],
                                               totalSeconds: 8)
        try FileManager.default.copyItem(at: source, to: folder.appending(path: "book.mp3"))
        _ = try abplayer.run(["import", "--library", library, folder.path]).requireSuccess()
        let out = abplayer.home.appending(path: "out.wav")
        let repl = try ReplPipeProcess(abplayer, arguments: ["--library", library, "--output", "wav:\(out.path)"])

        // When it plays with the timer set to the end of the chapter
        repl.send("play Chaptered")
        repl.send("sleep chapter")
        let during = repl.status()
        let paused = repl.waitForLine(containing: "sleep timer: paused at", timeout: 20)
        let after = repl.status()
        #expect(repl.quit() == 0, "\(repl.stderrLines)")

        // Then it stopped at 3.0 s: the wav's length, the position saved and the bookmark
        #expect(during?.sleep == "end of chapter")
        #expect(paused != nil, "\(repl.stdoutLines)")
        #expect(after?.state == "paused")
        let wav = try WavFile.read(out)
        let played = Double(wav.samples.count / wav.channels) / Double(wav.rate)
        #expect(abs(played - 3) < 0.1, "played \(played) s")
        let saved = try #require(try Self.books(abplayer, library: library).first?.positionSeconds)
        #expect(abs(saved - 3) < 0.1, "saved \(saved) s")
        let mark = try Self.bookmarks(abplayer, library: library, book: "Chaptered").first { $0.kind == "sleepTimer" }
        #expect(abs(Double(mark?.frame ?? 0) / 44100 - 3) < 0.1)
        // and the fade was under way before the boundary: quieter in the last half second
        #expect(Self.rms(wav, from: 2.7, seconds: 0.25) < Self.rms(wav, from: 0.3, seconds: 0.25) / 2)
    }

    @Test func playDuringTheFadeCancelsItAndTheVolumeComesBack() throws {
        // Given a 10 s tone with a 10 s sleep timer: the fade starts at once
        let (abplayer, library) = try Self.library("sleep-cancel", books: [("Tone", [(440, 10)])])
        let out = abplayer.home.appending(path: "out.wav")
        let repl = try ReplPipeProcess(abplayer, arguments: ["--library", library, "--output", "wav:\(out.path)"])
        repl.send("play Tone")
        repl.send("sleep 0:10")
        #expect(repl.waitForLine(containing: "sleep timer: 0:1") != nil)

        // When 'play' is typed 4 s in
        Thread.sleep(forTimeInterval: 4)
        repl.send("play")
        let off = repl.waitForLine(containing: "sleep timer off", timeout: 5)
        Thread.sleep(forTimeInterval: 2.5)
        let status = repl.status()
        #expect(repl.quit() == 0, "\(repl.stderrLines)")

        // Then the timer is off, it plays on, and the level, lower during the fade, is full again
        #expect(off != nil, "\(repl.stdoutLines)")
        #expect(status?.state == "playing")
        #expect(status?.sleep == nil)
        let wav = try WavFile.read(out)
        let full = Self.rms(wav, from: 0.2, seconds: 0.3)
        let fading = Self.rms(wav, from: 3.2, seconds: 0.3)
        let after = Self.rms(wav, from: 5.5, seconds: 0.5)
        #expect(fading < full * 0.8, "full \(full), 3.2 s into the fade \(fading)")
        #expect(abs(after - full) < full * 0.05, "full \(full), after the cancel \(after)")
    }

    @Test func sleepItemPausesAtTheStartOfTheNextItem() throws {
        // Given a book of two 2 s items
        let (abplayer, library) = try Self.library("sleep-item", books: [("Two", [(440, 2), (660, 2)])])
        let out = abplayer.home.appending(path: "out.wav")
        let repl = try ReplPipeProcess(abplayer, arguments: ["--library", library, "--output", "wav:\(out.path)"])

        // When the timer is set to the end of the item
        repl.send("play Two")
        repl.send("sleep item")
        let paused = repl.waitForLine(containing: "sleep timer: paused at", timeout: 10)
        let status = repl.status()
        #expect(repl.quit() == 0, "\(repl.stderrLines)")

        // Then item 1 was heard whole and nothing of item 2; the place is item 2 at 0:00
        #expect(paused != nil, "\(repl.stdoutLines)")
        #expect(status?.state == "paused")
        #expect(status?.itemNumber == 2)
        #expect(abs(status?.itemPosition ?? 9) < 0.01)
        let wav = try WavFile.read(out)
        let played = Double(wav.samples.count / wav.channels) / Double(wav.rate)
        #expect(abs(played - 2) < 0.05, "played \(played) s")
    }

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

    // MARK: Auto-rewind

    @Test func resumingAfterAPauseGoesBackButNotPastTheChapterStartAndNotWhenOff() throws {
        // Given a 20 s book with chapters at 0 and 3 s
        let abplayer = try AbplayerProcess("rewind")
        let library = abplayer.home.appending(path: "library.sqlite").path
        let folder = abplayer.home.appending(path: "Rewind")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let source = try Fixtures.withChapters(try Fixtures.mp3(seconds: 20, vbr: false),
                                               chapters: [(startSeconds: 0, title: "One"), (startSeconds: 3, title: "Two")],
                                               totalSeconds: 20)
        try FileManager.default.copyItem(at: source, to: folder.appending(path: "book.mp3"))
        _ = try abplayer.run(["import", "--library", library, folder.path]).requireSuccess()
        let repl = try ReplPipeProcess(abplayer, arguments: ["--library", library, "--output", "null"])
        repl.send("play Rewind")

        // When it is paused at 0:15 for 11+ s with a most of 60 s, then resumed
        repl.send("rewind 60")
        repl.send("seek 0:15")
        Thread.sleep(forTimeInterval: 0.3)
        let clock = ContinuousClock()
        repl.send("pause")
        let pausedAt = try #require(repl.status()?.bookPosition)
        let start = clock.now
        Thread.sleep(forTimeInterval: 11)
        var lines = repl.stdoutLines.count
        repl.send("play")
        let pause = (clock.now - start)
        let first = repl.status()

        // Then it went back by the curve's amount for that pause (about 1 s)
        let expected = 60 * log(pause.secondsValue / 10) / log(360.0)
        #expect(repl.waitForLine(containing: "rewound", after: lines) != nil)
        #expect(abs((pausedAt - (first?.bookPosition ?? 0)) - expected) < 0.3, "paused at \(pausedAt), resumed at \(first?.bookPosition ?? -1), expected \(expected) back")

        // When paused 1 s into chapter 2 with a most of 600 s (about 10 s back after 11 s)
        repl.send("rewind 600")
        repl.send("seek 0:04")
        Thread.sleep(forTimeInterval: 0.3)
        repl.send("pause")
        Thread.sleep(forTimeInterval: 11)
        repl.send("play")
        let second = repl.status()

        // Then it stopped at the chapter's start, 3 s
        #expect(abs((second?.bookPosition ?? 0) - 3) < 0.15, "\(second?.bookPosition ?? -1)")
        #expect(second?.chapterNumber == 2)

        // When rewind is off
        repl.send("rewind off")
        repl.send("pause")
        let offAt = try #require(repl.status()?.bookPosition)
        Thread.sleep(forTimeInterval: 11)
        lines = repl.stdoutLines.count
        repl.send("play")
        let third = repl.status()
        #expect(repl.quit() == 0, "\(repl.stderrLines)")

        // Then it resumes where it paused
        #expect(abs((third?.bookPosition ?? 0) - offAt) < 0.15, "paused at \(offAt), resumed at \(third?.bookPosition ?? -1)")
        #expect(!repl.stdoutLines.dropFirst(lines).contains { $0.contains("rewound") })
    }

    // MARK: Queue

    @Test func whenABookEndsTheFirstQueuedBookPlaysAndTheEndedOneIsFinished() throws {
        let (abplayer, library) = try Self.library("queue-next", books: [("First", [(440, 2)]), ("Second", [(880, 3)])])
        let repl = try ReplPipeProcess(abplayer, arguments: ["--library", library, "--output", "null"])

        // When Second is queued while First plays, and First ends
        repl.send("play First")
        repl.send("queue add Second")
        let queued = repl.status()
        let next = repl.waitForLine(containing: "queue: next up", timeout: 20)
        let status = repl.status()
        #expect(repl.quit() == 0, "\(repl.stderrLines)")

        // Then Second plays, the queue is empty, and First is finished in the library
        #expect(queued?.queue == 1)
        #expect(next?.contains("Second") == true, "\(repl.stdoutLines)")
        #expect(status?.book == "Second")
        #expect(status?.state == "playing")
        #expect(status?.queue == 0)
        let books = try Self.books(abplayer, library: library)
        #expect(books.first { $0.title == "First" }?.finished == true)
        #expect(books.first { $0.title == "Second" }?.finished == false)
    }

    @Test func theQueueIsReorderedAndSurvivesARestart() throws {
        let (abplayer, library) = try Self.library("queue-edit", books: [("Alpha", [(440, 1)]), ("Beta", [(550, 1)]), ("Gamma", [(660, 1)])])

        // When three books are queued, the third moved first and the second removed, plus two mistakes
        let edit = try abplayer.run(["-c", "queue add Alpha; queue add Beta; queue add Gamma; queue mv 3 1; queue rm 2; queue rm 7; queue add Nothing",
                                     "--library", library])
        // and the queue is listed by another run
        let listed = try abplayer.run(["-c", "queue", "--library", library]).requireSuccess()

        // Then it holds Gamma then Beta; each mistake was one line
        #expect(listed.stdoutString.split(separator: "\n").map { $0.split(separator: "\t").last.map(String.init) ?? "" } == ["Gamma", "Beta"],
                "\(listed.stdoutString)")
        #expect(edit.status != 0)
        let errors = edit.stderr.split(separator: "\n")
        #expect(errors.count == 2, "\(edit.stderr)")
        #expect(errors.first?.contains("1-2") == true)
        #expect(errors.last?.contains("Nothing") == true)
    }

    // MARK: Repeat and shuffle

    @Test func repeatItemLoopsTheItemAndRepeatBookStartsAgain() throws {
        // Given a book of two 2 s items, 440 and 660 Hz
        let (abplayer, library) = try Self.library("repeat", books: [("Loop", [(440, 2), (660, 2)])])
        let out = abplayer.home.appending(path: "out.wav")
        let repl = try ReplPipeProcess(abplayer, arguments: ["--library", library, "--output", "wav:\(out.path)"])

        // When item 1 repeats until it has started again three times (over 5 s heard: each
        // fall of its position is a new start, and a slow poll only undercounts them)
        repl.send("play Loop")
        repl.send("repeat item")
        var starts = 0
        var last = repl.status()
        let repeated = waitUntil(within: 90) {
            let now = repl.status()
            if let before = last?.itemPosition, let position = now?.itemPosition, position < before { starts += 1 }
            last = now
            return starts >= 3
        }
        let looping = last
        // and then the book repeats from 1 s into item 2, until item 1 plays again
        repl.send("repeat book")
        repl.send("goto 2 0:01")
        var wrapped = repl.status()
        let cameBack = waitUntil(within: 60) {
            wrapped = repl.status()
            return wrapped?.itemNumber == 1
        }
        #expect(repl.quit() == 0, "\(repl.stderrLines)")
        #expect(repeated && cameBack, "item 1 started again \(starts) times; after item 2: \(String(describing: wrapped))")

        // Then item 1 was still playing, its position wrapped; after item 2 came item 1 again
        #expect(looping?.itemNumber == 1)
        #expect(looping?.repeatMode == "item")
        #expect((looping?.itemPosition ?? 9) < 2)
        #expect(wrapped?.itemNumber == 1, "\(String(describing: wrapped))")
        #expect(wrapped?.repeatMode == "book")
        // and the first 4.5 s heard were all 440 Hz
        let wav = try WavFile.read(out)
        for second in stride(from: 0.5, through: 4.5, by: 1) {
            #expect(abs(Self.frequency(wav, at: second) - 440) < 2, "at \(second) s")
        }
    }

    @Test func shufflePlaysEveryItemOnceInAPass() throws {
        // Given a book of four 1.5 s items at four frequencies
        let frequencies = [300.0, 500, 700, 900]
        let (abplayer, library) = try Self.library("shuffle", books: [("Mix", frequencies.map { ($0, 1.5) })])
        let out = abplayer.home.appending(path: "out.wav")
        let repl = try ReplPipeProcess(abplayer, arguments: ["--library", library, "--output", "wav:\(out.path)"])

        // When it plays shuffled to the end
        repl.send("play Mix")
        repl.send("shuffle on")
        let status = repl.status()
        let ended = repl.waitForLine(containing: "the end", timeout: 20)
        #expect(repl.quit() == 0, "\(repl.stderrLines)")

        // Then each item was heard exactly once, whole
        #expect(status?.shuffle == true)
        #expect(ended != nil)
        let wav = try WavFile.read(out)
        let played = Double(wav.samples.count / wav.channels) / Double(wav.rate)
        #expect(abs(played - 6) < 0.1, "played \(played) s")
        let heard = (0..<4).map { Self.frequency(wav, at: 0.75 + 1.5 * Double($0), seconds: 1) }
        let matched = heard.map { hz in frequencies.firstIndex { abs($0 - hz) < 5 } }
        #expect(Set(matched.compactMap { $0 }).count == 4, "heard \(heard)")
        #expect(matched.first == 0, "the first item plays first")
    }

    @Test func nextInShuffleVisitsEveryItemOnceAndPrevGoesBackAlongWhatWasHeard() throws {
        // Given a shuffled book of four 8 s items
        let (abplayer, library) = try Self.library("shuffle-next", books: [("Deck", [(300, 8), (500, 8), (700, 8), (900, 8)])])
        let repl = try ReplPipeProcess(abplayer, arguments: ["--library", library, "--output", "null"])
        repl.send("play Deck")
        repl.send("shuffle on")
        var heard = [repl.status()?.itemNumber]

        // When next is asked three times (each item heard a moment)
        for _ in 0..<3 {
            repl.send("next")
            Thread.sleep(forTimeInterval: 0.5)
            heard.append(repl.status()?.itemNumber)
        }
        // and prev, within the first seconds of the last one
        repl.send("prev")
        Thread.sleep(forTimeInterval: 0.5)
        let back = repl.status()
        #expect(repl.quit() == 0, "\(repl.stderrLines)")

        // Then the four items were each heard once, and prev went to the one heard before
        #expect(Set(heard.compactMap { $0 }) == [1, 2, 3, 4], "heard \(heard)")
        #expect(back?.itemNumber == heard[2], "heard \(heard), back at \(String(describing: back?.itemNumber))")
    }
}
