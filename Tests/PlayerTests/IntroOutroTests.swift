import Foundation
import Library
import Listening
@testable import Player
import PlayerCore
import Testing
import TestSupport

/// Intro and outro skipping, heard as audio: a book of three time-coded MP3s (second k of each
/// file sounds its own tone) played on the test's clock, with the first 2 s and the last 1 s of
/// every file left out.
@Suite(.serialized) struct IntroOutroTests {
    /// Item lengths: different, so that the three files differ (the library knows files by content).
    static let itemSeconds = [8, 9, 10]

    /// A player with the book "Trimmed" whose own settings leave out 2 s and 1 s of every item.
    static func trimmedBook(_ name: String) throws -> (ControllerHarness, book: Int64) {
        let player = try ControllerHarness(clocked: name)
        let book = try player.book("Trimmed", itemSeconds: itemSeconds)
        var settings = try player.library.settings.ofBook(book)
        settings.skipIntroSeconds = 2
        settings.skipOutroSeconds = 1
        try player.library.settings.save(settings)
        return (player, book)
    }

    /// The seconds heard, in order, from what the clocked output took.
    static func secondsHeard(_ player: ControllerHarness) -> [Int] {
        SecondTrack(player.heard, channels: 1, rate: player.clockedOutput?.sinkRate ?? 22050).distinctSeconds
    }

    @Test func everyItemIsHeardWithoutItsFirstTwoAndLastSecondAndTheTimeLeftOutIsCounted() throws {
        // Given the book, its settings read back from the database
        let (player, book) = try Self.trimmedBook("intro-outro-play")
        let stored = try player.library.settings.ofBook(book)
        #expect(stored.ownSkipIntroSeconds == 2 && stored.ownSkipOutroSeconds == 1)

        // When it plays from its start to its end
        try player.perform(.play(bookId: book))
        player.advance(by: .milliseconds(300))
        // Then it starts 2 s into the first file, the status says so, and the time left is the
        // time that will be heard: 5 + 6 + 7 s, not the 27 s of the files
        #expect(player.status.itemNumber == 1 && abs(player.status.itemPosition - 2.3) < 0.15, "\(player.status.itemPosition)")
        #expect(player.status.introOutro == "intro 2s, outro 1s")
        #expect(abs((player.status.timeLeft ?? 0) - 17.7) < 0.15, "left \(String(describing: player.status.timeLeft))")
        // and the first file's time left stops where its outro starts (7 s), not at its end
        #expect(abs((player.status.chapterTimeLeft ?? 0) - 4.7) < 0.15, "chapter left \(String(describing: player.status.chapterTimeLeft))")
        #expect(player.advance(until: { player.status.state == .finished }, within: .seconds(40)))

        // Then each file was heard from its second 2 to the second before its last
        #expect(Self.secondsHeard(player) == [2, 3, 4, 5, 6, 2, 3, 4, 5, 6, 7, 2, 3, 4, 5, 6, 7, 8], "\(Self.secondsHeard(player))")
        #expect(abs(player.heardSeconds - 18) < 0.1, "heard \(player.heardSeconds) s")
        // and the 3 intros and 3 outros left out (9 s) are counted for the book
        #expect(abs(try player.library.history.skippedSeconds(.introOutro, ofBook: book) - 9) < 0.05)
        // and the book is marked finished: its end was reached, though its file's last second was not heard
        #expect(try player.library.books.book(matching: "Trimmed").finishedAt != nil)
        #expect(player.status.itemNumber == 3)
    }

    @Test func aSeekIntoAnIntroLandsAtItsEndAndIntoAnOutroAtTheNextItemsAudibleStart() throws {
        let (player, book) = try Self.trimmedBook("intro-outro-seek")
        try player.perform(.play(bookId: book))
        player.advance(by: .milliseconds(500))

        // When the listener seeks to 0:09, one second into the second file (its intro)
        try player.perform(.seek(.absolute(seconds: 9)))
        let afterIntroSeek = player.heard.count
        player.advance(by: .milliseconds(800))
        // Then it plays from 2 s into that file: second 2 is heard
        #expect(player.status.itemNumber == 2 && abs(player.status.itemPosition - 2.8) < 0.15, "\(player.status.itemPosition)")
        #expect(SecondTrack(Array(player.heard[afterIntroSeek...]), channels: 1, rate: 22050).distinctSeconds == [2])

        // When it seeks to 0:16.5, half a second into the second file's last second (its outro)
        try player.perform(.seek(.absolute(seconds: 16.5)))
        let afterOutroSeek = player.heard.count
        player.advance(by: .milliseconds(800))
        // Then it goes on in the third file, 2 s into it
        #expect(player.status.itemNumber == 3 && abs(player.status.itemPosition - 2.8) < 0.15, "\(player.status.itemPosition)")
        #expect(SecondTrack(Array(player.heard[afterOutroSeek...]), channels: 1, rate: 22050).distinctSeconds == [2])

        // When it seeks into the last file's outro, the book has nothing left: it ends there
        try player.perform(.seek(.absolute(seconds: 26.5)))
        #expect(player.advance(until: { player.status.state == .finished }, within: .seconds(5)))
    }

    @Test func prevJustAfterAnIntroGoesToThePreviousItemAsItDoesAtATop() throws {
        // Given the book playing half a second after the second file's intro
        let (player, book) = try Self.trimmedBook("intro-outro-prev")
        try player.perform(.play(bookId: book))
        try player.perform(.seek(.absolute(seconds: 10)))
        player.advance(by: .milliseconds(500))
        #expect(player.status.itemNumber == 2 && abs(player.status.itemPosition - 2.5) < 0.15, "\(player.status.itemPosition)")

        // When the listener goes back an item, then a chapter (each file is one)
        try player.perform(.previousItem)
        // Then it is in the first file, where its intro ends
        #expect(player.status.itemNumber == 1 && player.status.itemPosition == 2, "\(player.status.itemPosition)")
        player.advance(by: .milliseconds(500))
        try player.perform(.chapter(.previous))
        // and the chapter before that is none: the first chapter starts again, where it is heard from
        #expect(player.status.itemNumber == 1 && player.status.itemPosition == 2, "\(player.status.itemPosition)")
        // and 4 s later in the second file, 'chapter prev' starts the second file again
        try player.perform(.goto(item: 1, seconds: 6))
        try player.perform(.chapter(.previous))
        #expect(player.status.itemNumber == 2 && player.status.itemPosition == 2, "\(player.status.itemPosition)")
        player.advance(by: .milliseconds(500))
        try player.perform(.chapter(.previous))
        #expect(player.status.itemNumber == 1 && player.status.itemPosition == 2, "\(player.status.itemPosition)")
    }

    @Test func theSleepTimerAtTheEndOfTheChapterPausesWhereTheOutroStarts() throws {
        // Given the book playing (each file stands as a chapter), the timer at the chapter's end
        let (player, book) = try Self.trimmedBook("intro-outro-sleep")
        try player.perform(.play(bookId: book))
        _ = try player.perform(.sleep(.endOfChapter))

        // When the clock runs until the timer pauses it
        #expect(player.advance(until: { player.sawSleepPause }, within: .seconds(20)))

        // Then it paused after the first file's audible part, 2 s to 7 s: 5 s heard, its outro not
        #expect(player.status.state == .paused)
        #expect(abs(player.heardSeconds - 5) < 0.05, "heard \(player.heardSeconds) s")
        #expect(Self.secondsHeard(player).last == 6)
        #expect(player.heardRMS(from: player.heardSeconds - 0.1, seconds: 0.1, rate: 22050) < 0.01)
    }

    @Test func skipSilenceTogetherShortensTheSilenceBetweenWhatIntroAndOutroLeave() throws {
        // Given a book of two time-coded files with 2 s of silence after their second 4 (files
        // of 10 s and 11 s), skip silence on, and 2 s of intro and 1 s of outro left out
        let player = try ControllerHarness(clocked: "intro-outro-silence")
        let folder = player.folder.appending(path: "Pauses")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let rate = 22050
        for (index, seconds) in [8, 9].enumerated() {
            let signal = TimeCodedSignal.render(seconds: seconds, rate: rate, channels: 1)
            let withPause = Array(signal[..<(5 * rate)]) + [Float](repeating: 0, count: 2 * rate) + Array(signal[(5 * rate)...])
            let wav = folder.appending(path: "part.wav")
            try WavFile(rate: rate, channels: 1, samples: withPause).write(to: wav)
            try Command.run("lame", ["--quiet", "--nohist", "-b", "64", wav.path, folder.appending(path: "0\(index + 1).mp3").path]).requireSuccess()
            try FileManager.default.removeItem(at: wav)
        }
        _ = try Importer(library: player.library, inspector: DecoderInspector(decoders: ControllerHarness.registry)).importPaths([folder.path])
        let book = try player.library.books.book(matching: "Pauses").id!
        _ = try player.perform(.defaults(.set(.silence, 0.6)))
        _ = try player.perform(.defaults(.set(.intro, 2)))
        _ = try player.perform(.defaults(.set(.outro, 1)))

        // When it plays to its end
        try player.perform(.play(bookId: book))
        #expect(player.advance(until: { player.status.state == .finished }, within: .seconds(40)))

        // Then each file is heard from its second 2 to the second before its last, the 2 s
        // silences shortened to a short pause, and both savings are counted apart
        #expect(Self.secondsHeard(player) == [2, 3, 4, 5, 6, 2, 3, 4, 5, 6, 7], "\(Self.secondsHeard(player))")
        let track = SecondTrack(player.heard, channels: 1, rate: rate)
        #expect(track.gaps(longerThan: 0.5).isEmpty, "\(track)")
        // (7 s and 8 s left by the trim, each pause of 2 s shortened by more than 1.5 s)
        #expect(player.heardSeconds > 11 && player.heardSeconds < 15 - 2 * 1.5, "heard \(player.heardSeconds) s")
        #expect(abs(try player.library.history.skippedSeconds(.introOutro, ofBook: book) - 6) < 0.05)
        #expect(try player.library.history.skippedSeconds(.silence, ofBook: book) > 3)
    }

    @Test func theListenersDefaultAppliesToABookWithoutItsOwnAndTheBooksOwnWins() throws {
        // Given a book with no setting of its own, and the defaults intro 3 s, outro 0
        let player = try ControllerHarness(clocked: "intro-outro-default")
        let book = try player.book("Plain", itemSeconds: [6, 7])
        guard case let .defaults(defaults, _) = try player.perform(.defaults(.set(.intro, 3))) else { Issue.record("not set"); return }
        #expect(defaults.introSeconds == 3 && defaults.line(.intro) == "intro   3s left out of every item")

        // When it plays
        try player.perform(.play(bookId: book))
        #expect(player.advance(until: { player.status.state == .finished }, within: .seconds(20)))
        // Then each file is heard from its second 3 to its end
        #expect(Self.secondsHeard(player) == [3, 4, 5, 3, 4, 5, 6], "\(Self.secondsHeard(player))")
        #expect(try player.library.settings.ofBook(book).ownSkipIntroSeconds == nil)

        // When the book gets its own (intro off), it applies and says so
        guard case let .introOutro(setting) = try player.perform(.skipIntro(seconds: 0)) else { Issue.record("no answer"); return }
        #expect(setting.introSeconds == 0 && setting.ownIntro && !setting.ownOutro)
        #expect(setting.text.hasPrefix("intro off (this book), outro off (default); 6s left out so far"), "\(setting.text)")
        #expect(try player.library.settings.ofBook(book).ownSkipIntroSeconds == 0)
        // and 'intro default' follows the default again
        guard case let .introOutro(back) = try player.perform(.useDefault(.intro)) else { Issue.record("no answer"); return }
        #expect(back.introSeconds == 3 && !back.ownIntro)
    }

    @Test func anIntroOutOfRangeIsRefusedAndNothingChanges() throws {
        let (player, book) = try Self.trimmedBook("intro-outro-range")
        try player.perform(.play(bookId: book))
        #expect(throws: PlayerError.self) { try player.perform(.skipIntro(seconds: 601)) }
        #expect(try player.library.settings.ofBook(book).skipIntroSeconds == 2)
    }
}
