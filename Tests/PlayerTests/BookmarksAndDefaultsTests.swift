import Foundation
import Library
@testable import Player
import PlayerCore
import Testing

/// Bookmarks a listener can use, and defaults set once, on the real controller: real plugins, a
/// real engine on the test's clock, a library in a real SQLite file.
/// One at a time, like PlayerControllerTests: each makes its books with lame.
@Suite(.serialized) struct BookmarksAndDefaultsTests {
    /// Loads `book` and pauses it (jumps and bookmarks work the same paused, and nothing ends).
    func loadPaused(_ player: ControllerHarness, _ book: Int64) async throws {
        try player.perform(.play(bookId: book))
        try player.perform(.pause)
        #expect(await player.run(until: { player.events.contains { if case .stateChanged(.paused) = $0 { true } else { false } } }))
    }

    @Test func aBookmarkIsListedWithItsPlaceAndJumpGoesThereAsAnUndoPoint() async throws {
        // Given a book of two items (40 s and 50 s), paused 42.6 s in: 2.6 s into item 2
        let player = try ControllerHarness(clocked: "bookmarks")
        let book = try player.book("Duel", itemSeconds: [40, 50])
        try await loadPaused(player, book)
        try player.perform(.seek(.absolute(seconds: 42.6)))

        // When a bookmark is made there with a note
        guard case let .bookmarked(made) = try player.perform(.bookmark(note: "the duel")) else {
            Issue.record("no bookmark made")
            return
        }

        // Then it is said at the time the list shows, one rounding rule: the whole second heard
        // (42.6 s is 0:42, as the clock shows it; rounding would say 0:43)
        #expect(made.time == "0:42" && made.item == 1 && made.kind == .user)
        guard case let .bookmarks(title, listed) = try player.perform(.bookmarks(bookId: nil, all: false)) else {
            Issue.record("no list")
            return
        }
        #expect(title == "Duel" && listed.map(\.id) == [made.id] && made.number == .user(1))
        #expect(listed[0].time == made.time)
        // (a file of a many-file book is a chapter, titled by its name)
        #expect(listed[0].line == "1  0:42  chapter 2: 02  the duel")
        // and the same line from the path with no player (`abplayer bookmarks BOOK`, another book)
        #expect(try BookmarkPlace.places(ofBook: book, in: player.library, all: false).map(\.line) == [listed[0].line])

        // When the listener goes elsewhere, then jumps to the bookmark
        try player.perform(.seek(.absolute(seconds: 10)))
        guard case let .jumpedToBookmark(reached, landed) = try player.perform(.gotoBookmark(made.number)) else {
            Issue.record("no jump")
            return
        }
        // Then it is there, and the jump left an automatic bookmark that `--all` lists
        let landedAt = try #require(landed.bookSeconds)
        #expect(reached.id == made.id && abs(landedAt - 42.6) < 0.01)
        let there = try #require(player.status.bookPosition)
        #expect(player.status.itemNumber == 2 && abs(there - 42.6) < 0.01)
        guard case let .bookmarks(_, all) = try player.perform(.bookmarks(bookId: nil, all: true)) else {
            Issue.record("no list")
            return
        }
        #expect(all.map(\.kind).contains(.beforeBookmarkJump))
        #expect(all.first { $0.kind == .beforeBookmarkJump }?.time == "0:10")
        // and undo comes back to where the jump left
        try player.perform(.undo)
        let back = try #require(player.status.bookPosition)
        #expect(player.status.itemNumber == 1 && abs(back - 10) < 0.01)
        #expect(await player.runUntilHeard { $0.item == 0 && $0.frame >= Int64(10 * PlayerControllerTests.rate) })
    }

    @Test func unknownNumbersAreRefusedNamingTheRightOnesAndNotesAndRemovalsAreStored() async throws {
        // Given two books, the first loaded with a bookmark, the second with one of its own
        let player = try ControllerHarness(clocked: "bookmark-errors")
        let first = try player.book("First", itemSeconds: [30])
        let second = try player.book("Second", itemSeconds: [31])
        // (nothing loaded yet: a number names no bookmark, as numbers are a book's)
        #expect(throws: PlayerError("nothing is playing: bookmark numbers are a book's, so 'play BOOK' first, then 'bookmark rm 1'")) {
            try player.perform(.removeBookmark(.user(1)))
        }
        try await loadPaused(player, first)
        guard case let .bookmarked(mine) = try player.perform(.bookmark(note: nil)) else { Issue.record("no bookmark"); return }
        let secondMedia = try player.library.books.items(ofBook: second)[0].id!
        let theirs = try player.library.bookmarks.add(bookId: second, mediaId: secondMedia, frame: 22050, kind: .user)

        // When the listener jumps to a number that is no bookmark, the valid ones are named
        #expect(throws: PlayerError("no bookmark 2 in First: its one bookmark is 1 ('bookmarks' lists them, 'bookmarks --all' with the automatic ones, a1, a2...)")) {
            try player.perform(.gotoBookmark(.user(2)))
        }
        #expect(throws: PlayerError("no bookmark a1 in First, which has no automatic ones (they are left before a seek or a jump)")) {
            try player.perform(.gotoBookmark(.automatic(1)))
        }

        // When a note is written on the bookmark (an apostrophe and a ;, verbatim) and read back from the file
        guard case let .bookmarkNoted(noted) = try player.perform(.noteBookmark(mine.number, note: "Don't forget; the duel")) else {
            Issue.record("no note")
            return
        }
        #expect(noted.note == "Don't forget; the duel" && noted.time == mine.time && noted.number == .user(1))
        let reopened = try LibraryDatabase(path: player.folder.appending(path: "library.sqlite").path)
        #expect(try reopened.bookmarks.bookmark(id: mine.id)?.note == "Don't forget; the duel")
        // and the other book's bookmark 1 is not this book's: untouched
        #expect(try reopened.bookmarks.bookmark(id: theirs.id!)?.note == nil)

        // When it is removed, it is gone from the file and from the list
        guard case let .bookmarkRemoved(removed, moved) = try player.perform(.removeBookmark(mine.number)) else { Issue.record("not removed"); return }
        #expect(removed.id == mine.id && moved == 0)
        #expect(try reopened.bookmarks.bookmark(id: mine.id) == nil && reopened.bookmarks.bookmark(id: theirs.id!) != nil)
        guard case let .bookmarks(_, left) = try player.perform(.bookmarks(bookId: nil, all: false)) else { return }
        #expect(left.isEmpty)
        #expect(throws: PlayerError("no bookmark 1 in First, which has none: 'bookmark [NOTE]' makes one ('bookmarks --all' lists the automatic ones, a1, a2...)")) {
            try player.perform(.removeBookmark(.user(1)))
        }
    }

    @Test func bookmarksAreNumberedByTimeInTheBookAndAutomaticOnesApart() async throws {
        // Given a book of two items (40 s and 50 s), bookmarked out of time order: at 0:50 (item 2)
        // and then 0:20, with a seek between them leaving an automatic bookmark
        let player = try ControllerHarness(clocked: "bookmark-numbers")
        let book = try player.book("Order", itemSeconds: [40, 50])
        try await loadPaused(player, book)
        try player.perform(.seek(.absolute(seconds: 50)))
        guard case let .bookmarked(late) = try player.perform(.bookmark(note: "late")) else { Issue.record("no bookmark"); return }
        try player.perform(.seek(.absolute(seconds: 20)))
        guard case let .bookmarked(early) = try player.perform(.bookmark(note: "early")) else { Issue.record("no bookmark"); return }

        // Then each was answered with its number in the list as it was then: the later place made
        // first was 1, and the earlier one made second is 1 too, the other now 2
        #expect(late.number == .user(1) && early.number == .user(1))
        guard case let .bookmarks(_, listed) = try player.perform(.bookmarks(bookId: nil, all: false)) else { Issue.record("no list"); return }
        #expect(listed.map(\.number) == [.user(1), .user(2)] && listed.map(\.note) == ["early", "late"])
        // and --all keeps those numbers, the automatic ones a1, a2... among them by time
        guard case let .bookmarks(_, all) = try player.perform(.bookmarks(bookId: nil, all: true)) else { Issue.record("no list"); return }
        #expect(all.map(\.number.description) == ["a1", "1", "2", "a2"], "\(all.map(\.line))")
        #expect(all.map(\.time) == ["0:00", "0:20", "0:50", "0:50"], "\(all.map(\.line))")

        // When the listener jumps to a2, it is the automatic one at 0:50 (the seek away from it),
        // said by the number it was chosen by
        guard case let .jumpedToBookmark(automatic, _) = try player.perform(.gotoBookmark(.automatic(2))) else { Issue.record("no jump"); return }
        #expect(automatic.kind == .beforeSeek && automatic.number == .automatic(2))
        #expect(abs((player.status.bookPosition ?? -1) - 50) < 0.01)
        // and 1 is 0:20
        guard case let .jumpedToBookmark(reached, _) = try player.perform(.gotoBookmark(.user(1))) else { Issue.record("no jump"); return }
        #expect(reached.note == "early" && reached.number == .user(1))
        #expect(abs((player.status.bookPosition ?? -1) - 20) < 0.01)

        // When note 2 is written, it is the 0:50 one's
        guard case let .bookmarkNoted(noted) = try player.perform(.noteBookmark(.user(2), note: "x")) else { Issue.record("no note"); return }
        #expect(noted.id == late.id && noted.time == "0:50")
        // and removing 1 removes the 0:20 one, saying the one after it moved up
        guard case let .bookmarkRemoved(removed, moved) = try player.perform(.removeBookmark(.user(1))) else { Issue.record("not removed"); return }
        #expect(removed.id == early.id && moved == 1)
        guard case let .bookmarks(_, after) = try player.perform(.bookmarks(bookId: nil, all: false)) else { Issue.record("no list"); return }
        #expect(after.map(\.number) == [.user(1)] && after.map(\.id) == [late.id] && after[0].note == "x")
    }

    @Test func defaultsApplyToBooksWithoutTheirOwnSettingAndTheBooksOwnWins() async throws {
        // Given defaults set once: speed 1.3, skip 20 s
        let player = try ControllerHarness(clocked: "defaults")
        let book = try player.book("Plain", itemSeconds: [60])
        guard case let .defaults(set, changed) = try player.perform(.defaults(.set(.speed, 1.3))) else { Issue.record("no defaults"); return }
        #expect(set.speed == 1.3 && changed == .speed)
        try player.perform(.defaults(.set(.skip, 20)))
        #expect(throws: PlayerError("'5' is out of range: use a speed from 0.5 to 4 (1.25 or 1.25x; 1 is normal)")) {
            try player.perform(.defaults(.set(.speed, 5)))
        }

        // When a book with no setting of its own plays
        try await loadPaused(player, book)

        // Then the defaults apply, and status says so (text and JSON)
        #expect(player.status.speed == 1.3 && player.status.speedSource == .default)
        #expect(player.status.skipInterval == 20 && player.status.skipSource == .default)
        #expect(player.status.text.contains("speed 1.3x (default)  skip 20 s (default)"))
        #expect(player.status.json.contains(#""speedSource":"default""#))
        // and + skips the default's 20 s (from where the pause left it, a moment after the start)
        let start = try #require(player.status.bookPosition)
        try player.perform(.skip(forward: true, seconds: nil))
        let skipped = try #require(player.status.bookPosition)
        #expect(abs(skipped - start - 20) < 0.01, "\(start) -> \(skipped)")

        // When the book is given a speed of its own, it wins, and is the book's in the file
        try player.perform(.speed(1.5))
        #expect(player.status.speed == 1.5 && player.status.speedSource == .book)
        #expect(player.status.text.contains("speed 1.5x (this book)"))
        #expect(try player.library.settings.ofBook(book).ownSpeed == 1.5)
        // a new default does not change it
        try player.perform(.defaults(.set(.speed, 1.2)))
        #expect(player.status.speed == 1.5)

        // When the book goes back to the default, the default applies at once
        try player.perform(.useDefault(.speed))
        #expect(player.status.speed == 1.2 && player.status.speedSource == .default)
        #expect(try player.library.settings.ofBook(book).ownSpeed == nil)

        // And a volume past 100 % is labelled a boost
        try player.perform(.volume(percent: 120))
        #expect(player.status.text.contains("volume 120% (boost)"))
        try player.perform(.volume(percent: 100))
        #expect(player.status.text.contains("volume 100%  output"))
    }

    @Test func aSleepDefaultIsArmedWhenABookStarts() async throws {
        // Given a sleep default of 30 minutes and a book
        let player = try ControllerHarness(clocked: "sleep-default")
        let book = try player.book("Night", itemSeconds: [30])
        try player.perform(.defaults(.set(.sleep, 1800)))
        guard case let .defaults(set, _) = try player.perform(.defaults(.show)) else { Issue.record("no defaults"); return }
        #expect(set.lines.contains("sleep   30m from the start of every book"))

        // When the book starts, then its timer is armed at the default
        try player.perform(.play(bookId: book))
        #expect(player.status.sleep == .counting(secondsLeft: 30 * 60))

        // and cleared, the next start arms none
        try player.perform(.defaults(.set(.sleep, nil)))
        try player.perform(.play(bookId: book))
        #expect(player.status.sleep == nil)
    }

    @Test func aBooksOwnSleepDefaultWinsAndATypedSleepIsForThisTimeOnly() async throws {
        // Given the listener's sleep default of 30 minutes, and a book whose own is 20 (`book
        // settings --sleep-timer 20m`)
        let player = try ControllerHarness(clocked: "sleep-own")
        let book = try player.book("Night", itemSeconds: [30])
        let other = try player.book("Day", itemSeconds: [30])
        try player.perform(.defaults(.set(.sleep, 1800)))
        var settings = try player.library.settings.ofBook(book)
        settings.sleepTimerSeconds = 1200
        try player.library.settings.save(settings)

        // When it starts, its own default is armed; another book gets the listener's
        try player.perform(.play(bookId: book))
        #expect(player.status.sleep == .counting(secondsLeft: 20 * 60))
        try player.perform(.play(bookId: other))
        #expect(player.status.sleep == .counting(secondsLeft: 30 * 60))

        // When a sleep time is typed for this book, it runs now but is not kept as the book's
        try player.perform(.sleep(.duration(300)))
        #expect(player.status.sleep == .counting(secondsLeft: 5 * 60))
        #expect(try player.library.settings.ofBook(other).sleepTimerSeconds == nil)
        try player.perform(.play(bookId: other))
        #expect(player.status.sleep == .counting(secondsLeft: 30 * 60))
    }

    @Test func aSleepCountdownGoesOnIntoTheQueuesNextBookInsteadOfStoppingTheQueue() async throws {
        // Given a sleep default, a 3 s book on the test's clock with a 20-minute countdown set
        // while paused, and a book queued after it
        let player = try ControllerHarness(clocked: "sleep-queue")
        let first = try player.book("Short", itemSeconds: [3])
        let next = try player.book("Next", itemSeconds: [30])
        try player.perform(.defaults(.set(.sleep, 1800)))
        try player.perform(.queue(.add(bookId: next)))
        try player.perform(.play(bookId: first))
        try player.perform(.pause)
        try player.perform(.sleep(.duration(1200)))
        try player.perform(.play(bookId: nil))

        // When the first book plays to its end with the countdown running
        let started = player.advance(until: { player.controller.loadedBook?.book.id == next }, within: .seconds(5))

        // Then the queue's next book plays, with the countdown that was running (20 minutes less
        // the 3 s of the first book), not the default afresh
        #expect(started, "\(player.notices)")
        #expect(player.status.sleep == .counting(secondsLeft: 19 * 60 + 57), "\(String(describing: player.status.sleep))")
    }
}
