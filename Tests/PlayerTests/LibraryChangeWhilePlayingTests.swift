import Foundation
import Library
@testable import Player
import PlayerCore
import Testing

/// The library watch changes the book being played: the controller takes the new item list
/// while it plays on. A real watch (inotify) on the real library file, files copied into the
/// book's folder as a listener does, and the engine on the test's clock: nothing plays while the
/// test waits for the watch (`run`), so however late it reports on a loaded machine, the book is
/// where it was; it plays on only in `advance`.
/// Inside `PlayerControllerTests`, whose `.serialized` then covers these too.
extension PlayerControllerTests {
    @Suite struct LibraryChangeWhilePlayingTests {
        /// 22.05 kHz items: frames in a second.
        static let rate = 22050.0

        @Test func aFileAddedAfterThePlayingOneIsHeardWhenTheBookGetsThere() async throws {
            // Given a book of two items (20 s, 3 s) playing, its folder watched
            let player = try ControllerHarness(clocked: "watch-after")
            let book = try player.book("Tail", itemSeconds: [20, 3])
            try player.watchLibrary()
            try player.perform(.play(bookId: book))
            #expect(await player.runUntilHeard { $0.frame > 0 })

            // When a third file (2 s) is copied into its folder
            try player.addFile("03.mp3", seconds: 2, toBook: "Tail")

            // Then the book playing has three items, 25 seconds long, as soon as the watch says so
            #expect(await player.run(until: { player.status.itemCount == 3 }, seconds: 30))
            #expect(player.libraryChanges.map(\.filesAdded) == [1])
            #expect(abs(try #require(player.status.bookDuration) - 25) < 0.2)
            let heard = player.advance(until: { Self.heardAfterReplacement(player.events) }, within: .seconds(5))
            #expect(heard, "events: \(player.events.suffix(12))")
            // without a break in what was heard
            try Self.expectSeamless(player.events)
            // and the engine plays into the third item to its end, where the book is finished
            #expect(player.advance(until: { player.events.contains { if case .ended = $0 { true } else { false } } }, within: .seconds(30)))
            let replaced = try #require(Self.replacementIndex(player.events))
            #expect(player.itemsOpened(from: replaced).contains(2))
            let lastHeard = player.events.last { if case .position = $0 { true } else { false } }
            guard case let .position(last)? = lastHeard else { Issue.record("nothing heard"); return }
            #expect(last.item == 2 && last.frame > Int64(1.5 * Self.rate), "\(last)")
            #expect(try player.library.books.book(matching: "Tail").finishedAt != nil)
        }

        @Test func aFileAddedBeforeThePlayingOneShiftsItsNumberNotWhatIsHeard() async throws {
            // Given a book of 02.mp3 (30 s) and 03.mp3 (7 s) playing in its first item, its folder watched
            let player = try ControllerHarness(clocked: "watch-before")
            let book = try player.book("Head", itemSeconds: [30, 7], firstNumber: 2)
            try player.watchLibrary()
            try player.perform(.play(bookId: book))
            #expect(await player.runUntilHeard { $0.item == 0 && $0.frame > Int64(Self.rate) })

            // When 01.mp3 (8 s) is copied in: it goes first in the book's order
            try player.addFile("01.mp3", seconds: 8, toBook: "Head")

            // Then the file playing is item 2 of 3 from then on, never item 1 again (events sent
            // before the engine took the new list are read in the new numbering)
            #expect(await player.run(until: { player.status.itemCount == 3 }, seconds: 30))
            var numbers = [player.status.itemNumber]
            #expect(player.advance(until: {
                numbers.append(player.status.itemNumber)
                // The engine's own report that it took the list too: the controller has it first.
                return player.status.itemPosition > 3 && Self.heardAfterReplacement(player.events)
            }, within: .seconds(5)))
            #expect(Set(numbers) == [2], "\(numbers)")
            #expect(try player.library.books.items(ofBook: book).map { ($0.path as NSString).lastPathComponent }
                == ["01.mp3", "02.mp3", "03.mp3"])
            // the engine's numbering moved and its audio did not: no jump, no gap, no item reopened
            try Self.expectSeamless(player.events)
            let replaced = try #require(Self.replacementIndex(player.events))
            #expect(player.itemsOpened(from: replaced).isEmpty)

            // and the position saved at a pause names the file playing, at the frame heard
            try player.perform(.pause)
            #expect(await player.run(until: { player.events.contains { if case .stateChanged(.paused) = $0 { true } else { false } } }))
            let playing = try #require(try player.library.books.items(ofBook: book).first { $0.path.hasSuffix("/02.mp3") })
            let saved = try #require(try player.library.positions.ofBook(book))
            let heard = try #require(player.controller.position)
            #expect(saved.mediaId == playing.id && heard.item == 1 && abs(saved.frame - heard.frame) < Int64(Self.rate / 5),
                    "saved \(saved), heard \(heard)")

            // and playing on from near its end, the file after it (now item 3) follows, never the
            // one added before it
            try player.perform(.seek(.absolute(seconds: 8 + 29)))
            try player.perform(.play(bookId: nil))
            #expect(await player.runUntilHeard { $0.item == 2 && $0.frame > 0 })
            #expect(player.itemsOpened(from: replaced).last == 2 && !player.itemsOpened(from: replaced).contains(0),
                    "\(player.itemsOpened(from: replaced))")
        }

        @Test func thePlayingFileGoneMissingPlaysOnToTheNext() async throws {
            // Given a book of two items (4 s, 3 s) playing in its first, its folder watched
            let player = try ControllerHarness(clocked: "watch-missing")
            let book = try player.book("Gone", itemSeconds: [4, 3])
            try player.watchLibrary()
            try player.perform(.play(bookId: book))
            #expect(await player.runUntilHeard { $0.item == 0 && $0.frame > Int64(Self.rate / 2) })

            // When the file playing is deleted
            try FileManager.default.removeItem(at: player.folder.appending(path: "Gone/01.mp3"))

            // Then the library marks it missing, and what is heard goes on: to the end of the file
            // (its decoder has it open) and into the next, with nothing failing
            #expect(await player.run(until: { player.libraryChanges.contains { $0.filesMissing == 1 } }, seconds: 30))
            #expect(try player.library.books.items(ofBook: book).first?.isMissing == true)
            #expect(await player.runUntilHeard { $0.item == 1 && $0.frame > 0 })
            #expect(!player.events.contains { if case .failed = $0 { true } else { false } })
            #expect(player.status.itemCount == 2)
        }

        @Test func aFileAddedToAShuffledBookIsInThePlanOnce() async throws {
            // Given a shuffled book of three items, loaded and paused, its folder watched
            let player = try ControllerHarness(clocked: "watch-shuffle")
            let book = try player.book("Deck", itemSeconds: [1, 2, 3])
            try player.watchLibrary()
            try player.perform(.play(bookId: book))
            try player.perform(.pause)
            #expect(await player.run(until: { player.events.contains { if case .stateChanged(.paused) = $0 { true } else { false } } }))
            try player.perform(.shuffle(true))
            let first = player.status.itemNumber

            // When a fourth file joins it
            try player.addFile("04.mp3", seconds: 4, toBook: "Deck")
            #expect(await player.run(until: { player.status.itemCount == 4 }, seconds: 30))

            // Then `next` walks the plan from the same item through all four, each once
            #expect(player.status.itemNumber == first)
            var byNext = [player.status.itemNumber]
            while (try? player.perform(.nextItem)) != nil { byNext.append(player.status.itemNumber) }
            #expect(byNext.count == 4 && Set(byNext) == [1, 2, 3, 4], "\(byNext)")
            // and the book is finished at the plan's new last item
            #expect(player.controller.session?.recorder.lastItemInOrder == byNext.last.map { $0 - 1 })
        }

        /// Whether the engine reported hearing a place after it took a new item list.
        static func heardAfterReplacement(_ events: [PlaybackEvent]) -> Bool {
            guard let index = replacementIndex(events) else { return false }
            return events[(index + 1)...].contains { if case .position = $0 { true } else { false } }
        }

        /// Where the engine took a new item list in `events`.
        static func replacementIndex(_ events: [PlaybackEvent]) -> Int? {
            events.firstIndex { if case .itemsReplaced = $0 { true } else { false } }
        }

        /// The position heard last before the engine took the new list and the first after it are
        /// the same audio: the same item (renumbered) and at most a few reports' worth later.
        static func expectSeamless(_ events: [PlaybackEvent]) throws {
            let index = try #require(replacementIndex(events))
            guard case let .itemsReplaced(renumbering) = events[index] else { return }
            let before = events[..<index].compactMap { if case let .position(heard) = $0 { heard } else { nil } }.last
            let after = events[(index + 1)...].compactMap { if case let .position(heard) = $0 { heard } else { nil } }.first
            let last = try #require(before)
            let next = try #require(after)
            #expect(next.item == renumbering(last.item), "\(last) -> \(next)")
            #expect(next.frame >= last.frame && next.frame - last.frame < Int64(0.3 * rate), "\(last) -> \(next)")
        }
    }
}
