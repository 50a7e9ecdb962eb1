import Foundation
import Library
@testable import Player
import PlayerCore
import Testing

/// The player controller driven directly, as every front end drives it: typed commands in, the
/// engine's events handed back on the same task. Real plugins, a real engine on the test's clock
/// (or unpaced on the null sink), a library in a real SQLite file; no binary, no terminal.
/// One at a time: each makes its books with lame, which blocks a thread of the cooperative pool.
@Suite(.serialized) struct PlayerControllerTests {
    /// 22.05 kHz items: frames in a second.
    static let rate = 22050.0

    @Test func navigationCrossesItemsAndUndoGoesBackAlongTheJumps() async throws {
        // Given a book of three items of 40, 50 and 60 s, playing from its start
        let player = try ControllerHarness(clocked: "navigation")
        let book = try player.book("Walk", itemSeconds: [40, 50, 60])
        guard case let .started(_, seconds, item, count, _) = try player.perform(.play(bookId: book)) else {
            Issue.record("play did not start the book")
            return
        }
        #expect(seconds == 0 && item == 0 && count == 3)
        #expect(await player.runUntilHeard { $0.frame > 0 })

        // When it seeks 42 s into the book: 2 s into item 2, and the engine is heard there
        try player.perform(.seek(.absolute(seconds: 42)))
        #expect(player.status.itemNumber == 2 && player.status.itemPosition == 2)
        #expect(await player.runUntilHeard { $0.item == 1 && $0.frame >= Int64(2 * Self.rate) })
        // skipping back 3 s goes into item 1, exactly 3 s before where it was heard
        let before = try #require(player.status.bookPosition)
        try player.perform(.skip(forward: false, seconds: 3))
        #expect(player.status.itemNumber == 1)
        #expect(abs(try #require(player.status.bookPosition) - (before - 3)) < 1 / Self.rate * 2)
        // next is item 2's start; prev there goes to item 1's start; prev at item 1's start stays
        try player.perform(.nextItem)
        #expect(player.status.itemNumber == 2 && player.status.itemPosition == 0)
        try player.perform(.previousItem)
        #expect(player.status.itemNumber == 1 && player.status.itemPosition == 0)
        try player.perform(.previousItem)
        #expect(player.status.itemNumber == 1 && player.status.itemPosition == 0)
        // goto lands inside item 3; past its end is refused with its length
        try player.perform(.goto(item: 2, seconds: 1.5))
        #expect(player.status.itemNumber == 3 && player.status.itemPosition == 1.5)
        #expect(throws: PlayerError.self) { try player.perform(.goto(item: 2, seconds: 61)) }
        #expect(await player.runUntilHeard { $0.item == 2 && $0.frame >= Int64(1.5 * Self.rate) })
        // each file of a book without chapter marks is a chapter: there is none after the last,
        // and the error names the choices
        #expect(throws: PlayerError("already in the last chapter (3 of 3); 'chapter prev' goes back")) {
            try player.perform(.chapter(.next))
        }

        // Then undo walks back along the jumps: before goto (item 1's start), then before the
        // prevs and next (item 2's start, as next left it)
        guard case let .undone(first) = try player.perform(.undo) else { Issue.record("no undo"); return }
        #expect(first.bookSeconds == 0 && player.status.itemNumber == 1)
        try player.perform(.undo)
        #expect(player.status.itemNumber == 1 && player.status.itemPosition == 0)
        try player.perform(.undo)
        #expect(player.status.itemNumber == 2 && player.status.itemPosition == 0)
        // and each jump left an automatic bookmark of its kind in the library
        let kinds = try player.library.bookmarks.all(ofBook: book).map(\.kind)
        #expect(kinds.contains(.beforeSeek) && kinds.contains(.beforeSkip))
    }

    @Test func shuffleIsOnePlanThatNextAndTheAutomaticAdvanceBothFollow() async throws {
        // Given a book of five items, loaded and paused, then shuffled
        let player = try ControllerHarness("shuffle", paced: false)
        let book = try player.book("Mix", itemSeconds: [1, 2, 3, 4, 5])
        try player.perform(.play(bookId: book))
        try player.perform(.pause)
        #expect(await player.run(until: { player.events.contains { if case .stateChanged(.paused) = $0 { true } else { false } } }))
        guard case .shuffle(true) = try player.perform(.shuffle(true)) else { Issue.record("shuffle not on"); return }

        // When `next` is asked until the last item
        var byNext = [player.status.itemNumber - 1]
        while (try? player.perform(.nextItem)) != nil { byNext.append(player.status.itemNumber - 1) }
        // Then each item came once
        #expect(byNext.count == 5 && Set(byNext).count == 5, "\(byNext)")
        #expect(throws: PlayerError("this is the last item")) { try player.perform(.nextItem) }
        // and prev walks the same plan back
        try player.perform(.previousItem)
        #expect(player.status.itemNumber - 1 == byNext[3])

        // When the plan's first item plays unattended to the end of the book
        try player.perform(.playItem(byNext[0]))
        #expect(await player.run(until: { player.events.contains { if case .ended = $0 { true } else { false } } }, seconds: 60))
        // Then the engine played the items in the order `next` had walked
        #expect(Array(player.itemsOpened().suffix(5)) == byNext, "\(player.itemsOpened())")
        // and the book is finished
        #expect(try player.library.catalog.bookListing(id: book).finished)
    }

    @Test func aBookThatEndsIsFinishedAndTheQueueStartsTheNext() async throws {
        // Given two books, the second queued
        let player = try ControllerHarness("queue", paced: false)
        let first = try player.book("First", itemSeconds: [1, 2])
        let second = try player.book("Second", itemSeconds: [3])
        guard case let .queued(queued, count) = try player.perform(.queue(.add(bookId: second))) else {
            Issue.record("not queued")
            return
        }
        #expect(queued.id == second && count == 1)
        guard case .alreadyQueued = try player.perform(.queue(.add(bookId: second))) else { Issue.record("queued twice"); return }

        // When the first plays to its end
        try player.perform(.play(bookId: first))
        #expect(await player.run(until: { player.controller.status?.bookId == second }, seconds: 60))

        // Then it is finished, the second plays from its start, and the queue is empty
        #expect(try player.library.catalog.bookListing(id: first).finished)
        #expect(player.notices.contains(.ended(book: "First", startsAgain: false)))
        #expect(player.notices.contains { if case let .queueNext(book) = $0 { book.id == second } else { false } })
        #expect(player.status.book == "Second" && player.status.itemNumber == 1)
        #expect(try player.library.queue.books().isEmpty)
    }

    @Test func theEndIsAFullBarAndPlayThereStartsTheBookAgain() async throws {
        // Given a book of two files, played to its end with nothing queued
        let player = try ControllerHarness("the-end", paced: false)
        let book = try player.book("Short", itemSeconds: [1, 2])
        try player.perform(.play(bookId: book))
        #expect(await player.run(until: { player.notices.contains { if case .ended = $0 { true } else { false } } }, seconds: 60))

        // Then the book is finished, the place is its very end (the bar full, not a second
        // short), and the notice says what play does now
        #expect(try player.library.catalog.bookListing(id: book).finished)
        #expect(player.notices.contains(.ended(book: "Short", startsAgain: true)))
        #expect(player.status.state == .finished)
        #expect(player.status.bookPosition == player.status.bookDuration && player.status.bookDuration == 3)
        #expect(player.status.timeLeft == 0)

        // When play (space on the screen) is pressed there
        try player.perform(.toggle)
        // Then the book starts again from its start, says so, and is no longer finished
        #expect(player.notices.contains(.playingAgain(book: "Short")))
        #expect(player.status.itemNumber == 1 && player.status.itemPosition == 0)
        #expect(player.status.state == .playing)
        #expect(try !player.library.catalog.bookListing(id: book).finished)
        #expect(await player.runUntilHeard { $0.item == 1 })
    }

    @Test func aTimerShorterThanTheFadeFadesOverWhatIsLeftPausesAndBookmarksThePlace() async throws {
        // Given a book playing on the test's clock, 1 s in
        let player = try ControllerHarness(clocked: "sleep")
        let book = try player.toneBook("Night", tones: [(440, 60)], rate: Int(Self.rate), channels: 1)
        try player.perform(.play(bookId: book))
        player.advance(by: .seconds(1))

        // When a 2 s sleep timer is set (shorter than the 10 s fade)
        guard case let .sleepTimer(text) = try player.perform(.sleep(.duration(2))) else { Issue.record("no timer"); return }
        #expect(text == "0:02 left")
        #expect(player.advance(until: { player.sawSleepPause }, within: .seconds(5)))

        // Then playback paused exactly 2 s later, the timer is off, and the place is bookmarked
        // and saved there
        #expect(player.status.state == .paused)
        #expect(player.status.sleep == nil)
        #expect(abs(player.heardSeconds - 3) < 0.01, "heard \(player.heardSeconds) s")
        let mark = try #require(try player.library.bookmarks.all(ofBook: book).first { $0.kind == .sleepTimer })
        #expect(abs(Double(mark.frame) / Self.rate - 3) < 0.01, "paused at \(Double(mark.frame) / Self.rate)")
        #expect(try player.saved(book).frame == mark.frame)
        // and it faded out over those 2 s: the ramp starts after the audio the output already
        // held (under half a second of it, at full level) and ends in silence exactly on time
        let full = player.heardRMS(from: 0.25, seconds: 0.5, rate: Int(Self.rate))
        let levels = stride(from: 1.0, to: 3.0, by: 0.25).map { player.heardRMS(from: $0, seconds: 0.1, rate: Int(Self.rate)) / full }
        #expect(zip(levels, levels.dropFirst()).allSatisfy { $0 >= $1 - 0.01 }, "\(levels)")
        #expect(levels[0] > 0.95 && levels[1] > 0.8, "\(levels)")
        #expect((0.35...0.65).contains(levels[5]), "\(levels)")
        #expect(player.heardRMS(from: 2.9, seconds: 0.1, rate: Int(Self.rate)) / full < 0.1)
    }

    @Test func sleepAtTheEndOfTheItemStopsAtItsBoundary() async throws {
        // Given a book of two items playing on the test's clock
        let player = try ControllerHarness(clocked: "sleep-item")
        let book = try player.book("Two", itemSeconds: [30, 4])
        try player.perform(.play(bookId: book))

        // When the timer is set to the end of the item, and the item plays its last 3 s
        guard case .sleepTimer("end of item") = try player.perform(.sleep(.endOfItem)) else { Issue.record("no timer"); return }
        try player.perform(.seek(.absolute(seconds: 27)))
        #expect(player.advance(until: { player.sawSleepPause }, within: .seconds(5)))

        // Then item 1 was heard to its end and nothing of item 2: the place is item 2 at 0:00
        #expect(player.status.state == .paused)
        #expect(player.status.itemNumber == 2 && player.status.itemPosition < 0.01, "\(player.status.itemPosition)")
        let heardOfItem2 = player.events.compactMap { if case let .position(place) = $0, place.item == 1 { place.frame } else { nil } }
        #expect(heardOfItem2.allSatisfy { $0 == 0 }, "\(heardOfItem2)")
        #expect(abs(player.heardSeconds - 3) < 0.02, "heard \(player.heardSeconds) s")
    }

    @Test func autoRewindCountsThePauseSinceThePlaceWasSavedAcrossRuns() async throws {
        // Given a book whose place (1:00) was saved an hour ago, by an earlier run of the player
        let player = try ControllerHarness(clocked: "rewind-across-runs")
        let book = try player.book("Long", itemSeconds: [120])
        let item = try player.library.books.items(ofBook: book)[0]
        try player.library.positions.savePosition(bookId: book, mediaId: item.id!, frame: Int64(60 * Self.rate), at: Date() - 3600)

        // When it is played
        guard case let .started(_, seconds, _, _, _) = try player.perform(.play(bookId: book)) else {
            Issue.record("not started"); return
        }

        // Then it starts the most auto-rewind goes back (30 s) before the saved place, and says so
        #expect(abs((seconds ?? -1) - 30) < 0.1, "\(String(describing: seconds))")
        #expect(player.notices.contains { if case let .rewound(back) = $0 { abs(back - 30) < 0.1 } else { false } })
        #expect(await player.runUntilHeard { $0.frame > 0 })
        #expect(abs(player.status.itemPosition - 30) < 1.5, "\(player.status.itemPosition)")
    }

    @Test func aPlaceSavedSecondsAgoIsResumedExactly() throws {
        // Given a place saved 5 s ago (a restart, a switch of books)
        let player = try ControllerHarness(clocked: "rewind-short")
        let book = try player.book("Short pause", itemSeconds: [120])
        let item = try player.library.books.items(ofBook: book)[0]
        try player.library.positions.savePosition(bookId: book, mediaId: item.id!, frame: Int64(60 * Self.rate), at: Date() - 5)

        // When it is played, it starts exactly there
        guard case let .started(_, seconds, _, _, _) = try player.perform(.play(bookId: book)) else {
            Issue.record("not started"); return
        }
        #expect(seconds == 60)
        #expect(!player.notices.contains { if case .rewound = $0 { true } else { false } })
    }

    @Test func autoRewindGoesBackForTheTimePausedButNeverPastTheItemStart() async throws {
        // Given a book on the test's clock, playing 20 s in, then paused
        let player = try ControllerHarness(clocked: "rewind")
        let book = try player.book("Long", itemSeconds: [120])
        try player.perform(.play(bookId: book))
        try player.perform(.seek(.absolute(seconds: 20)))
        player.advance(by: .seconds(1))
        try player.perform(.pause)
        #expect(await player.run(until: { player.controller.session?.aids.rewind.pausedSince != nil }))
        let pausedAt = player.status.itemPosition
        #expect(abs(pausedAt - 21) < 0.01, "paused at \(pausedAt)")

        // When a minute passes paused (in microseconds), and it resumes
        player.advance(by: .seconds(60))
        #expect(player.status.itemPosition == pausedAt, "nothing played while paused")
        try player.perform(.toggle)

        // Then it went back AutoRewind's amount for exactly a minute (about 9 s), said so, and plays
        let back = AutoRewind.seconds(pausedFor: 60, maxSeconds: AutoRewind.defaultMaxSeconds)
        #expect(abs(player.status.itemPosition - (pausedAt - back)) < 0.01, "\(pausedAt) -> \(player.status.itemPosition)")
        #expect(player.notices.contains { if case let .rewound(seconds) = $0 { abs(seconds - back) < 0.01 } else { false } })
        #expect(player.status.state == .playing)

        // and near the start of the item, a two-hour pause goes back only to 0:00
        try player.perform(.seek(.absolute(seconds: 2)))
        player.advance(by: .milliseconds(500))
        try player.perform(.pause)
        #expect(await player.run(until: { player.controller.session?.aids.rewind.pausedSince != nil }))
        player.advance(by: .seconds(7200), step: .seconds(60))
        try player.perform(.play(bookId: nil))
        #expect(player.status.itemPosition == 0)

        // and a pause under 10 s goes back not at all
        player.advance(by: .seconds(5))
        try player.perform(.pause)
        #expect(await player.run(until: { player.controller.session?.aids.rewind.pausedSince != nil }))
        let short = player.status.itemPosition
        player.advance(by: .milliseconds(9900))
        try player.perform(.toggle)
        #expect(player.status.itemPosition == short)

        // and with rewind off, nothing
        guard case .rewind(nil) = try player.perform(.rewind(.off)) else { Issue.record("rewind still on"); return }
        try player.perform(.seek(.absolute(seconds: 10)))
        player.advance(by: .milliseconds(500))
        try player.perform(.pause)
        #expect(await player.run(until: { player.controller.session?.aids.rewind.pausedSince != nil }))
        let here = player.status.itemPosition
        player.advance(by: .seconds(7200), step: .seconds(60))
        try player.perform(.toggle)
        #expect(player.status.itemPosition == here)
    }

    @Test func aBurstOfSeeksWhilePausedEndsWhereTheLastWentInTheLibraryToo() async throws {
        // Given a book of a 5 s and a 30 s item on the test's clock, played a second, paused
        let player = try ControllerHarness(clocked: "seek-burst")
        let book = try player.book("Burst", itemSeconds: [5, 30])
        try player.perform(.play(bookId: book))
        player.advance(by: .seconds(1))
        try player.perform(.pause)
        player.advance(by: .milliseconds(100))

        // When it seeks twenty times across both items (a held key), last to 0:02, before the
        // engine's reports of the places it went through are handed over
        for second in 1...20 { try player.perform(.seek(.absolute(seconds: Double(second)))) }
        try player.perform(.seek(.absolute(seconds: 2)))
        player.advance(by: .milliseconds(100))

        // Then the place, shown and saved, is 0:02 of item 1: no place or item passed through
        // on the way was taken for where the listener is
        #expect(player.status.itemNumber == 1 && player.status.itemPosition == 2, "\(player.status.itemNumber) \(player.status.itemPosition)")
        let saved = try player.saved(book)
        #expect(saved.item == 0 && saved.frame == Int64(2 * Self.rate), "saved \(saved)")
        #expect(player.status.state == .paused)
    }

    @Test func thePositionIsSavedEverySecondWhilePlayingAndExactlyAtPause() async throws {
        // Given a book playing on the test's clock
        let player = try ControllerHarness(clocked: "save")
        let book = try player.book("Saved", itemSeconds: [60])
        try player.perform(.play(bookId: book))

        // When it plays 10 s, a tenth of a second at a time
        var savedEachTenth: [Double] = []
        for _ in 0..<100 {
            player.advance(by: .milliseconds(100))
            savedEachTenth.append(Double(try player.saved(book).frame) / Self.rate)
        }

        // Then the place saved moved on about once a second, never ahead of what was heard and
        // never more than a second behind it
        let moves = zip(savedEachTenth, savedEachTenth.dropFirst()).filter { $0 != $1 }.count
        #expect((9...11).contains(moves), "the saved place moved \(moves) times in 10 s: \(savedEachTenth)")
        for (tenth, saved) in savedEachTenth.enumerated() {
            let heard = Double(tenth + 1) / 10
            #expect(saved <= heard + 0.001 && saved > heard - 1.05, "after \(heard) s heard, saved \(saved)")
        }
        #expect(abs(player.status.itemPosition - 10) < 0.001, "heard \(player.status.itemPosition) after 10 s")

        // When it pauses, the place saved is the place heard
        try player.perform(.pause)
        #expect(await player.run(until: { player.controller.session?.aids.rewind.pausedSince != nil }))
        #expect(abs(Double(try player.saved(book).frame) / Self.rate - player.status.itemPosition) < 0.01)
        // and after close it is still there
        let final = try player.saved(book)
        player.controller.close()
        let after = try player.saved(book)
        #expect(after.item == final.item && abs(after.frame - final.frame) < Int64(Self.rate / 100),
                "saved \(final) at pause, \(after) after close")
    }

    @Test func speedAndVolumeOutsideWhatPlaysAreRefusedNotClamped() async throws {
        let player = try ControllerHarness("settings", paced: false)
        let book = try player.book("Loud", itemSeconds: [2])
        try player.perform(.play(bookId: book))
        #expect(throws: PlayerError("'0.3' is out of range: use a speed from 0.5 to 4 (1.25 or 1.25x; 1 is normal)")) {
            try player.perform(.speed(0.3))
        }
        #expect(throws: PlayerError("'151' is out of range: use a volume from 0 to 150 percent (80 or 80%)")) {
            try player.perform(.volume(percent: 151))
        }
        guard case let .settings(speed, volume, _) = try player.perform(.speed(1.5)) else { Issue.record("no settings"); return }
        #expect(speed == 1.5 && volume == 100)
        #expect(try player.library.settings.ofBook(book).speed == 1.5)
        // The volume is stored, played and reported in percent: no factor between them
        guard case let .settings(_, percent, _) = try player.perform(.volume(percent: 80)) else { Issue.record("no settings"); return }
        #expect(percent == 80)
        #expect(try player.library.settings.ofBook(book).volume == 80)
        #expect(player.controller.status?.volume == 80)
        // while a step (a key, `volume +5`) stops at the end of the range, and is saved
        for _ in 0..<20 { try player.perform(.stepVolume(by: 5)) }
        #expect(player.controller.status?.volume == 150)
        #expect(try player.library.settings.ofBook(book).volume == 150)
        try player.perform(.stepVolume(by: -149))
        try player.perform(.stepVolume(by: -5))
        #expect(player.controller.status?.volume == 0)
        // and a speed step lands on the hundredth (no 1.5000000001 from adding tenths), up to 4
        try player.perform(.stepSpeed(by: 0.1))
        try player.perform(.stepSpeed(by: 0.1))
        #expect(player.controller.status?.speed == 1.7)
        for _ in 0..<30 { try player.perform(.stepSpeed(by: 0.1)) }
        #expect(player.controller.status?.speed == 4)
        #expect(try player.library.settings.ofBook(book).speed == 4)
        // (a quarter step from 1 is 1.25, not 1.3)
        try player.perform(.speed(1))
        try player.perform(.stepSpeed(by: 0.25))
        #expect(player.controller.status?.speed == 1.25)
        try player.perform(.speed(0.5))
        try player.perform(.stepSpeed(by: -0.1))
        #expect(player.controller.status?.speed == 0.5)
    }
}
