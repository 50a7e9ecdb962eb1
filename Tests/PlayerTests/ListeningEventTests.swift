import Foundation
@testable import Player
import PlayerCore
import Synchronization
import Testing

/// The listening events the controller tells its listeners (the event hooks run on them), on
/// the test's clock: each is told once, in order, with the state as it happened.
@Suite struct ListeningEventTests {
    /// What a listener was told, kept for the test (told on the test's own task).
    final class Told: Sendable {
        let events = Mutex<[ListeningEvent]>([])
        var kinds: [ListeningEvent.Kind] { events.withLock { $0.map(\.kind) } }
        func last(_ kind: ListeningEvent.Kind) -> ListeningEvent? { events.withLock { $0.last { $0.kind == kind } } }
    }

    static func listening(_ player: ControllerHarness) -> Told {
        let told = Told()
        player.controller.broadcast.addListener { event in told.events.withLock { $0.append(event) } }
        return told
    }

    @Test func playingPausingABookmarkAChapterTheSleepTimerAndTheEndAreEachToldOnce() async throws {
        // Given a book of two 3 s items (a chapter each), and a listener
        let player = try ControllerHarness(clocked: "events")
        let book = try player.toneBook("Two Tones", tones: [(440, 3), (660, 3)])
        let told = Self.listening(player)

        // When it plays a second, pauses, is bookmarked, and plays on
        try player.perform(.play(bookId: book))
        player.advance(by: .seconds(1))
        try player.perform(.pause)
        try player.perform(.bookmark(note: "here"))
        try player.perform(.play(bookId: nil))
        // Then it started, paused, was bookmarked and resumed, in that order
        #expect(told.kinds == [.started, .paused, .bookmark, .resumed])
        let started = try #require(told.last(.started))
        #expect(started.status?.book == "Two Tones" && started.status?.state == .playing && started.status?.chapterNumber == 1)
        #expect(started.file?.hasSuffix("/01.mp3") == true, "\(started.file ?? "nil")")
        let bookmark = try #require(told.last(.bookmark))
        #expect(bookmark.bookmark?.note == "here" && bookmark.bookmark?.kind == .user)
        #expect(abs((bookmark.status?.bookPosition ?? 0) - 1) < 0.05 && bookmark.status?.state == .paused)

        // When it plays into the second item, then a 1 s sleep timer runs out
        #expect(player.advance(until: { player.status.itemNumber == 2 }, within: .seconds(4)))
        _ = try player.perform(.sleep(.duration(1)))
        #expect(player.advance(until: { player.sawSleepPause }, within: .seconds(3)))
        // Then the new chapter was told with its number and file, then the pause, and the sleep
        // timer's part in it (the engine says it paused, then that its fade ended there)
        #expect(told.kinds.suffix(3) == [.chapter, .paused, .sleep], "\(told.kinds)")
        let chapter = try #require(told.last(.chapter))
        #expect(chapter.status?.chapterNumber == 2 && chapter.file?.hasSuffix("/02.mp3") == true)
        #expect(told.last(.sleep)?.status?.state == .paused)

        // When it plays to its end
        try player.perform(.play(bookId: nil))
        #expect(player.advance(until: { player.status.state == .finished }, within: .seconds(4)))
        // Then it resumed and finished, and nothing was told twice
        #expect(told.kinds.suffix(2) == [.resumed, .finished], "\(told.kinds)")
        #expect(told.kinds.filter { $0 == .finished }.count == 1 && told.kinds.filter { $0 == .started }.count == 1)
        #expect(told.last(.finished)?.status?.state == .finished)

        // When it is played again from the top: that is a start, not a resume
        try player.perform(.play(bookId: nil))
        #expect(told.kinds.last == .started, "\(told.kinds)")
    }

    @Test func aBookLoadedPausedStartsWhenFirstPlayedAndMovesBeforeThatAreNotChapters() async throws {
        // Given a book of two items played once (so it is the one listened to last), then a new
        // player that loads it paused at its place, as the REPL does at its start
        let player = try ControllerHarness(clocked: "events-cued")
        let book = try player.toneBook("Cued", tones: [(440, 3), (660, 3)])
        try player.perform(.play(bookId: book))
        player.advance(by: .milliseconds(500))
        player.controller.close()
        let told = Self.listening(player)
        _ = player.controller.cueBookListenedToLast()

        // When it is moved to the second item while still cued, then played
        try player.perform(.goto(item: 1, seconds: 0.5))
        #expect(told.kinds.isEmpty, "\(told.kinds)")
        try player.perform(.play(bookId: nil))
        // Then the move was no chapter event, and the first play is a start in chapter 2
        #expect(told.kinds == [.started], "\(told.kinds)")
        #expect(told.last(.started)?.status?.chapterNumber == 2)
        #expect(player.status.bookId == book)
    }

    @Test func aLostOutputIsToldWithWhatTheOutputSaid() async throws {
        // Given a book that has been heard
        let player = try ControllerHarness(clocked: "events-output")
        let book = try player.toneBook("Lost", tones: [(440, 3)])
        try player.perform(.play(bookId: book))
        player.advance(by: .milliseconds(500))
        #expect(player.controller.hasPlayed)
        let told = Self.listening(player)

        // When its engine says the output went away
        player.controller.handle(.engine(.outputLost("the server stopped"), generation: player.controller.generation))
        // Then the event carries the message and the book
        let lost = try #require(told.last(.outputLost))
        #expect(lost.message == "the server stopped" && lost.status?.book == "Lost")
    }
}
