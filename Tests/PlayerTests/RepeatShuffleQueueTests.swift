import Foundation
import Library
@testable import Player
import PlayerCore
import TestSupport
import Testing

/// Repeat, shuffle and the queue on the test's clock: what was heard, second by second, is
/// exactly what the clock let the output take.
@Suite struct RepeatShuffleQueueTests {
    @Test func repeatItemLoopsTheItemAndRepeatBookStartsAgain() async throws {
        // Given a book of two 2 s items, 440 and 660 Hz
        let player = try ControllerHarness(clocked: "repeat")
        let book = try player.toneBook("Loop", tones: [(440, 2), (660, 2)])
        try player.perform(.play(bookId: book))

        // When item 1 repeats for 5 s
        try player.perform(.repeatMode(.item))
        player.advance(by: .seconds(5))

        // Then item 1 is still playing, 1 s into its third start, and all 5 s heard were 440 Hz
        #expect(player.status.itemNumber == 1)
        #expect(player.status.repeatMode == .item)
        #expect(abs(player.status.itemPosition - 1) < 0.05, "\(player.status.itemPosition)")
        for second in stride(from: 0.5, through: 4.5, by: 1) {
            #expect(abs(player.heardFrequency(at: second) - 440) < 3, "at \(second) s")
        }

        // When the book repeats from 1 s into item 2 for 1.5 s
        try player.perform(.repeatMode(.book))
        try player.perform(.goto(item: 1, seconds: 1))
        let jumped = player.heardSeconds
        player.advance(by: .milliseconds(1500))

        // Then item 2's last second was heard, then item 1 again from its start
        #expect(player.status.itemNumber == 1, "\(player.status.itemNumber)")
        #expect(player.status.repeatMode == .book)
        #expect(abs(player.status.itemPosition - 0.5) < 0.05, "\(player.status.itemPosition)")
        #expect(abs(player.heardFrequency(at: jumped + 0.5, seconds: 0.4) - 660) < 3)
        #expect(abs(player.heardFrequency(at: jumped + 1.3, seconds: 0.3) - 440) < 3)
    }

    @Test func shufflePlaysEveryItemOnceInAPass() async throws {
        // Given a book of four 1.5 s items at four frequencies
        let frequencies = [300.0, 500, 700, 900]
        let player = try ControllerHarness(clocked: "shuffle")
        let book = try player.toneBook("Mix", tones: frequencies.map { ($0, 1.5) })

        // When it plays shuffled to the end
        try player.perform(.play(bookId: book))
        try player.perform(.shuffle(true))
        #expect(player.status.shuffle)
        #expect(player.advance(until: { player.controller.session?.hasEnded == true }, within: .seconds(8)))

        // Then each item was heard exactly once, whole, the first one first
        #expect(abs(player.heardSeconds - 6) < 0.05, "played \(player.heardSeconds) s")
        let heard = (0..<4).map { player.heardFrequency(at: 0.75 + 1.5 * Double($0), seconds: 1) }
        let matched = heard.map { hz in frequencies.firstIndex { abs($0 - hz) < 5 } }
        #expect(Set(matched.compactMap { $0 }).count == 4, "heard \(heard)")
        #expect(matched.first == 0, "the first item plays first")
    }

    @Test func nextInShuffleVisitsEveryItemOnceAndPrevGoesBackAlongWhatWasHeard() async throws {
        // Given a shuffled book of four 8 s items
        let player = try ControllerHarness(clocked: "shuffle-next")
        let book = try player.toneBook("Deck", tones: [(300, 8), (500, 8), (700, 8), (900, 8)])
        try player.perform(.play(bookId: book))
        try player.perform(.shuffle(true))
        player.advance(by: .milliseconds(500))
        var heard = [player.status.itemNumber]

        // When next is asked three times, each item heard half a second
        for _ in 0..<3 {
            try player.perform(.nextItem)
            player.advance(by: .milliseconds(500))
            heard.append(player.status.itemNumber)
        }
        // and prev, within the first seconds of the last one
        try player.perform(.previousItem)
        player.advance(by: .milliseconds(500))

        // Then the four items were each heard once, and prev went to the one heard before
        #expect(Set(heard) == [1, 2, 3, 4], "heard \(heard)")
        #expect(player.status.itemNumber == heard[2], "heard \(heard), back at \(player.status.itemNumber)")
        #expect(abs(player.heardSeconds - 2.5) < 0.01)
    }

    @Test func whenABookEndsTheFirstQueuedBookPlaysAndTheEndedOneIsFinished() async throws {
        // Given First (2 s) playing, with Second queued
        let player = try ControllerHarness(clocked: "queue-next")
        let first = try player.toneBook("First", tones: [(440, 2)])
        let second = try player.toneBook("Second", tones: [(880, 3)])
        try player.perform(.play(bookId: first))
        try player.perform(.queue(.add(bookId: second)))
        #expect(player.status.queue == 1)

        // When First ends
        #expect(player.advance(until: { player.notices.contains { if case .queueNext = $0 { true } else { false } } }, within: .seconds(4)))
        player.advance(by: .seconds(1))

        // Then Second plays, the queue is empty, First is finished; what was heard is First's
        // 2 s, then Second
        #expect(player.status.book == "Second")
        #expect(player.status.state == .playing)
        #expect(player.status.queue == 0)
        #expect(try player.library.queue.books().isEmpty)
        #expect(try player.library.books.book(matching: "First").finishedAt != nil)
        #expect(try player.library.books.book(matching: "Second").finishedAt == nil)
        #expect(abs(player.heardFrequency(at: 1) - 440) < 3)
        #expect(abs(player.heardFrequency(at: player.heardSeconds - 0.4, seconds: 0.4) - 880) < 3)
    }
}
