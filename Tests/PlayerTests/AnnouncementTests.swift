import Foundation
import Library
@testable import Player
import PlayerCore
import TestSupport
import Testing

/// What a plain-mode listener is told as it happens (`PlayerNotice.isAnnouncement`): a chapter
/// reached by playing on, and the sleep timer's last minute, on the test's clock.
@Suite struct AnnouncementTests {
    private func chaptersStarted(_ player: ControllerHarness) -> [String] {
        player.notices.compactMap { if case .chapterStarted = $0 { $0.text } else { nil } }
    }

    private func warnings(_ player: ControllerHarness) -> [PlayerNotice] {
        player.notices.filter { if case .sleepTimerEnding = $0 { true } else { false } }
    }

    @Test func aChapterReachedByPlayingIsAnnouncedAndAJumpIsNot() throws {
        // Given a book of three 2 s files (three chapters) playing from its start
        let player = try ControllerHarness(clocked: "announce-chapters")
        let book = try player.toneBook("Three", tones: [(440, 2), (550, 2), (660, 2)])
        try player.perform(.play(bookId: book))

        // When it plays into its second file
        #expect(player.advance(until: { !chaptersStarted(player).isEmpty }, within: .seconds(5)))

        // Then that chapter is announced once, after 2 s heard, with its number and title
        #expect(chaptersStarted(player) == ["chapter 2: 02"])
        #expect(abs(player.heardSeconds - 2) < 0.3, "heard \(player.heardSeconds) s")
        #expect(player.notices.first { if case .chapterStarted = $0 { true } else { false } }?.isAnnouncement == true)

        // When the listener jumps to the first chapter and plays a second in it
        try player.perform(.chapter(.number(1)))
        player.advance(by: .seconds(1))

        // Then the jump is not announced (its command answered it), nor is a chapter while it goes on
        #expect(chaptersStarted(player) == ["chapter 2: 02"])
    }

    @Test func theBookCuedAtStartUpIsNotAnnouncedAsAChapterReached() throws {
        // Given a book of three 2 s files whose place was saved in its third
        let player = try ControllerHarness(clocked: "announce-cued")
        let book = try player.toneBook("Three", tones: [(440, 2), (550, 2), (660, 2)])
        let third = try player.library.books.items(ofBook: book)[2]
        try player.library.positions.savePosition(bookId: book, mediaId: third.id!, frame: 0, at: Date())

        // When the player starts with it cued there, and it is played for a second
        #expect(player.controller.cueBookListenedToLast() != nil)
        player.advance(by: .seconds(1))
        try player.perform(.play(bookId: nil))
        #expect(player.advance(until: { player.heardSeconds >= 1 }, within: .seconds(5)))

        // Then no chapter is announced: the listener was told where it was loaded
        #expect(chaptersStarted(player).isEmpty, "\(chaptersStarted(player))")
    }

    @Test func aSleepTimerPausingAtTheNextChapterSaysTheChapterOnceBeforeThePause() throws {
        // Given a book of three 2 s files playing, the sleep timer set to the end of the chapter
        let player = try ControllerHarness(clocked: "announce-sleep-chapter")
        let book = try player.toneBook("Three", tones: [(440, 2), (550, 2), (660, 2)])
        try player.perform(.play(bookId: book))
        _ = try player.perform(.sleep(.endOfChapter))

        // When it pauses there, and the clock runs on a while
        #expect(player.advance(until: { player.sawSleepPause }, within: .seconds(5)))
        player.advance(by: .seconds(1))

        // Then the chapter it paused at the start of is said once, before the pause (whichever
        // of the engine's reports of that place came first)
        let said = player.notices.compactMap { notice -> String? in
            switch notice {
            case .chapterStarted, .sleepPaused: notice.text
            default: nil
            }
        }
        #expect(said == ["chapter 2: 02", "sleep timer: paused at 0:02 (bookmarked)"], "\(said)")
    }

    @Test func aSleepTimerSaysWhenAMinuteIsLeftOnce() throws {
        // Given a 3-minute tone playing with a 90 s sleep timer
        let player = try ControllerHarness(clocked: "announce-sleep")
        let book = try player.toneBook("Long", tones: [(330, 180)], rate: 8000, channels: 1)
        try player.perform(.play(bookId: book))
        _ = try player.perform(.sleep(.duration(90)))

        // When it plays 29 s, nothing is said yet
        player.advance(by: .seconds(29), step: .seconds(1))
        #expect(warnings(player).isEmpty)

        // When it is paused 10 minutes (the countdown stops) and plays on until the warning
        try player.perform(.pause)
        player.advance(by: .seconds(600), step: .seconds(10))
        #expect(warnings(player).isEmpty)
        try player.perform(.rewind(.off))
        try player.perform(.play(bookId: nil))
        #expect(player.advance(until: { !warnings(player).isEmpty }, within: .seconds(5)))

        // Then it came once a minute was left: after 30 s heard, saying so as an announcement
        #expect(abs(player.heardSeconds - 30) < 0.3, "heard \(player.heardSeconds) s")
        #expect(warnings(player).map(\.text) == ["sleep timer: 1 minute left"])
        #expect(warnings(player).allSatisfy { $0.isAnnouncement })
        // and not again before the timer ends
        #expect(player.advance(until: { player.sawSleepPause }, within: .seconds(70), step: .seconds(1)))
        #expect(warnings(player).count == 1)
    }

    /// Issue 33's scripted hour: a book of six 10-minute chapters heard through, on the test's
    /// clock, with a pause, a bookmark and a sleep timer along the way.
    @Test func aScriptedHourAnnouncesEachChapterTheSleepTimerAndTheEndInOrder() throws {
        // Given a book of six 10-minute files (a chapter each) playing from its start
        let player = try ControllerHarness(clocked: "announce-hour")
        let book = try player.toneBook("Hour", tones: (0..<6).map { (220 + 40 * Double($0), 600) }, rate: 8000, channels: 1, flac: true)
        try player.perform(.rewind(.off))
        try player.perform(.play(bookId: book))

        // When it plays 5 minutes, is paused a minute, bookmarked and played on; at 21:30 a
        // 10-minute sleep timer is set, and after it paused play goes on to the end
        player.advance(by: .seconds(300), step: .seconds(1))
        try player.perform(.pause)
        player.advance(by: .seconds(60), step: .seconds(10))
        try player.perform(.bookmark(note: "the hens"))
        try player.perform(.play(bookId: nil))
        #expect(player.advance(until: { player.heardSeconds >= 21 * 60 + 30 }, within: .seconds(17 * 60), step: .seconds(1)))
        _ = try player.perform(.sleep(.duration(600)))
        #expect(player.advance(until: { player.sawSleepPause }, within: .seconds(11 * 60), step: .seconds(1)))
        try player.perform(.play(bookId: nil))
        #expect(player.advance(until: { player.notices.contains { if case .ended = $0 { true } else { false } } },
                               within: .seconds(30 * 60), step: .seconds(1)))

        // Then what was said by itself is, in order, each chapter as it was reached, the sleep
        // timer's last minute and its pause, and the end; the places are the book's
        let said = player.notices.compactMap { notice -> String? in
            switch notice {
            case .chapterStarted, .sleepTimerEnding, .sleepPaused, .ended: notice.text
            default: nil
            }
        }
        #expect(said == ["chapter 2: 02", "chapter 3: 03", "chapter 4: 04", "sleep timer: 1 minute left",
                         "sleep timer: paused at 31:30 (bookmarked)", "chapter 5: 05", "chapter 6: 06",
                         "Hour: the end (finished); 'play' or space starts it again"], "\(said)")
        // and an hour was heard, the paused minute not counted
        #expect(abs(player.heardSeconds - 3600) < 1, "heard \(player.heardSeconds) s")
    }

    @Test func aTimerSetToAMinuteOrLessGivesNoWarning() throws {
        // Given a tone playing with a timer of exactly a minute
        let player = try ControllerHarness(clocked: "announce-short")
        let book = try player.toneBook("Short", tones: [(330, 90)], rate: 8000, channels: 1)
        try player.perform(.play(bookId: book))
        _ = try player.perform(.sleep(.duration(60)))

        // When it runs to its end
        #expect(player.advance(until: { player.sawSleepPause }, within: .seconds(70), step: .seconds(1)))

        // Then no minute's warning was said (the timer had said its minute when it was set)
        #expect(warnings(player).isEmpty)
    }
}
