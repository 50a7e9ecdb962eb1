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
