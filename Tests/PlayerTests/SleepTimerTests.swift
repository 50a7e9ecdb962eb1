import Foundation
import Library
import Listening
@testable import Player
import PlayerCore
import PluginHost
import TestSupport
import Testing

/// The sleep timer and auto-rewind on the test's clock: the output takes audio only as the test
/// advances the clock, so "12 s of playing" is exactly 12 s of frames however loaded the machine
/// is, and a 20-minute timer runs in seconds. What was heard is checked as audio.
@Suite struct SleepTimerTests {
    @Test func aTimedSleepFadesOverTenSecondsPausesAndBookmarksThePlace() async throws {
        // Given a 16 s tone playing, with a 12 s sleep timer set as it starts
        let player = try ControllerHarness(clocked: "sleep-fade")
        let book = try player.toneBook("Tone", tones: [(440, 16)])
        try player.perform(.play(bookId: book))
        guard case .sleepTimer("0:12 left") = try player.perform(.sleep(.duration(12))) else { Issue.record("timer not set"); return }

        // When the clock runs until the timer has paused it
        #expect(player.advance(until: { player.sawSleepPause }, within: .seconds(20)))

        // Then it paused by itself after exactly 12 s heard, with a sleepTimer bookmark and the
        // place saved there
        #expect(player.status.state == .paused)
        #expect(player.status.sleep == nil)
        let played = player.heardSeconds
        #expect(abs(played - 12) < 0.02, "played \(played) s")
        let marks = try player.library.bookmarks.all(ofBook: book).filter { $0.kind == .sleepTimer }
        #expect(marks.count == 1)
        #expect(abs(Double(marks.first?.frame ?? 0) / 44100 - played) < 0.02, "bookmark at \(marks.first?.frame ?? -1)")
        #expect(abs(Double(try player.saved(book).frame) / 44100 - played) < 0.02)
        // and what was heard is full for the first 2 s, then falls linearly in amplitude over the
        // last 10 s to silence
        let full = player.heardRMS(from: 0.5, seconds: 1)
        #expect(abs(full - 0.354) < 0.03, "full level \(full)")
        for second in 0..<10 {
            let level = player.heardRMS(from: played - 10 + Double(second), seconds: 0.5) / full
            let expected = 1 - (Double(second) + 0.25) / 10
            #expect(abs(level - expected) < 0.05, "at \(second) s into the fade: \(level), expected \(expected)")
        }
        #expect(player.heardRMS(from: played - 0.1, seconds: 0.1) < 0.01)
        // and nothing more is taken while it stays paused
        player.advance(by: .seconds(5))
        #expect(player.heardSeconds == played)
    }

    @Test func aTwentyMinuteTimerCountsOnlyWhilePlayingAndFadesAtItsEnd() async throws {
        // Given a 21-minute tone (8 kHz mono: cheap to make and decode) with a 20-minute timer
        let player = try ControllerHarness(clocked: "sleep-twenty")
        let book = try player.toneBook("Long", tones: [(330, 1260)], rate: 8000, channels: 1)
        try player.perform(.play(bookId: book))
        _ = try player.perform(.sleep(.duration(20 * 60)))

        // When it plays 5 minutes, is paused for an hour, then plays on
        player.advance(by: .seconds(300), step: .seconds(1))
        try player.perform(.pause)
        player.advance(by: .seconds(3600), step: .seconds(60))
        #expect(player.status.sleep == .counting(secondsLeft: 15 * 60))
        try player.perform(.rewind(.off))
        try player.perform(.play(bookId: nil))
        #expect(player.advance(until: { player.sawSleepPause }, within: .seconds(15 * 60 + 30), step: .seconds(1)))

        // Then it paused after exactly 20 minutes heard: the paused hour did not count
        #expect(abs(player.heardSeconds - 1200) < 0.05, "heard \(player.heardSeconds) s")
        #expect(abs(player.status.itemPosition - 1200) < 0.05, "paused at \(player.status.itemPosition)")
        #expect(player.status.state == .paused)
        // and it faded over the last 10 s: full at 19:49, half way at 19:55, silent at the end
        let full = player.heardRMS(from: 1188.5, seconds: 1, rate: 8000)
        #expect(abs(full - 0.354) < 0.03, "full level \(full)")
        #expect(abs(player.heardRMS(from: 1194.75, seconds: 0.5, rate: 8000) / full - 0.5) < 0.05)
        #expect(player.heardRMS(from: 1199.9, seconds: 0.1, rate: 8000) < 0.01)
    }

    @Test func sleepChapterStopsExactlyAtTheChapterBoundary() async throws {
        // Given a book of one 8 s MP3 with chapters at 0 and 3 s
        let player = try ControllerHarness(clocked: "sleep-chapter")
        let folder = player.folder.appending(path: "Chaptered")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let source = try Fixtures.withChapters(try Fixtures.mp3(seconds: 8, vbr: false),
                                               chapters: [(startSeconds: 0, title: "One"), (startSeconds: 3, title: "Two")],
                                               totalSeconds: 8)
        try FileManager.default.copyItem(at: source, to: folder.appending(path: "book.mp3"))
        let importer = Importer(library: player.library, inspector: DecoderInspector(decoders: ControllerHarness.registry))
        _ = try importer.importPaths([folder.path])
        let book = try player.library.books.book(matching: "Chaptered").id!

        // When it plays with the timer set to the end of the chapter
        try player.perform(.play(bookId: book))
        _ = try player.perform(.sleep(.endOfChapter))
        #expect(player.status.sleep == .endOfChapter)
        #expect(player.advance(until: { player.sawSleepPause }, within: .seconds(8)))

        // Then it stopped at 3.0 s: what was heard, the place saved and the bookmark
        #expect(player.status.state == .paused)
        let rate = Double(player.clockedOutput?.sinkRate ?? 0)
        #expect(abs(player.heardSeconds - 3) < 0.01, "played \(player.heardSeconds) s")
        #expect(abs(Double(try player.saved(book).frame) / rate - 3) < 0.01)
        let mark = try player.library.bookmarks.all(ofBook: book).first { $0.kind == .sleepTimer }
        #expect(abs(Double(mark?.frame ?? 0) / rate - 3) < 0.01)
        // and the fade was under way before the boundary: quieter in the last half second
        let rateInt = Int(rate)
        #expect(player.heardRMS(from: 2.7, seconds: 0.25, rate: rateInt) < player.heardRMS(from: 0.3, seconds: 0.25, rate: rateInt) / 2)
    }

    @Test func playDuringTheFadeCancelsItAndTheVolumeComesBack() async throws {
        // Given a 10 s tone with a 10 s sleep timer: the fade starts at once
        let player = try ControllerHarness(clocked: "sleep-cancel")
        let book = try player.toneBook("Tone", tones: [(440, 10)])
        try player.perform(.play(bookId: book))
        _ = try player.perform(.sleep(.duration(10)))
        player.advance(by: .seconds(4))

        // When 'play' is asked 4 s in
        try player.perform(.play(bookId: nil))
        player.advance(by: .milliseconds(2500))

        // Then the timer is off, it plays on, and the level, lower during the fade, is full again
        #expect(player.notices.contains { if case .sleepTimerOff = $0 { true } else { false } })
        #expect(player.status.state == .playing)
        #expect(player.status.sleep == nil)
        let full = player.heardRMS(from: 0.2, seconds: 0.3)
        let fading = player.heardRMS(from: 3.2, seconds: 0.3)
        let after = player.heardRMS(from: 5.5, seconds: 0.5)
        #expect(abs(fading / full - 0.67) < 0.05, "full \(full), 3.2 s into the fade \(fading)")
        #expect(abs(after - full) < full * 0.02, "full \(full), after the cancel \(after)")
        #expect(abs(player.heardSeconds - 6.5) < 0.01)
    }

    @Test func sleepItemPausesAtTheStartOfTheNextItem() async throws {
        // Given a book of two 2 s items
        let player = try ControllerHarness(clocked: "sleep-item")
        let book = try player.toneBook("Two", tones: [(440, 2), (660, 2)])
        try player.perform(.play(bookId: book))

        // When the timer is set to the end of the item
        _ = try player.perform(.sleep(.endOfItem))
        #expect(player.advance(until: { player.sawSleepPause }, within: .seconds(4)))

        // Then item 1 was heard whole and nothing of item 2; the place is item 2 at 0:00
        #expect(player.status.state == .paused)
        #expect(player.status.itemNumber == 2)
        #expect(abs(player.status.itemPosition) < 0.01)
        #expect(abs(player.heardSeconds - 2) < 0.03, "played \(player.heardSeconds) s")
        #expect(abs(player.heardFrequency(at: 1.75) - 440) < 3)
    }

    @Test func resumingAfterAPauseGoesBackButNotPastTheChapterStartAndNotWhenOff() async throws {
        // Given a 20 s book with chapters at 0 and 3 s, at 0:15
        let player = try ControllerHarness(clocked: "rewind-chapters")
        let folder = player.folder.appending(path: "Rewind")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let source = try Fixtures.withChapters(try Fixtures.mp3(seconds: 20, vbr: false),
                                               chapters: [(startSeconds: 0, title: "One"), (startSeconds: 3, title: "Two")],
                                               totalSeconds: 20)
        try FileManager.default.copyItem(at: source, to: folder.appending(path: "book.mp3"))
        let importer = Importer(library: player.library, inspector: DecoderInspector(decoders: ControllerHarness.registry))
        _ = try importer.importPaths([folder.path])
        let book = try player.library.books.book(matching: "Rewind").id!
        try player.perform(.play(bookId: book))
        try player.perform(.rewind(.max(60)))
        try player.perform(.seek(.absolute(seconds: 15)))
        player.advance(by: .milliseconds(300))

        // When it is paused for 11 s with a most of 60 s, then resumed
        try player.perform(.pause)
        let pausedAt = try #require(player.status.bookPosition)
        player.advance(by: .seconds(11))
        try player.perform(.play(bookId: nil))

        // Then it went back by the curve's amount for exactly that pause
        let expected = AutoRewind.seconds(pausedFor: 11, maxSeconds: 60)
        #expect(player.notices.contains { if case .rewound = $0 { true } else { false } })
        #expect(abs((pausedAt - (player.status.bookPosition ?? 0)) - expected) < 0.01,
                "paused at \(pausedAt), resumed at \(player.status.bookPosition ?? -1), expected \(expected) back")

        // When paused 1 s into chapter 2 for 11 s with a most of 600 s (about 10 s back)
        try player.perform(.rewind(.max(600)))
        try player.perform(.seek(.absolute(seconds: 4)))
        player.advance(by: .milliseconds(300))
        try player.perform(.pause)
        player.advance(by: .seconds(11))
        try player.perform(.play(bookId: nil))

        // Then it stopped at the chapter's start, 3 s
        #expect(abs((player.status.bookPosition ?? 0) - 3) < 0.01, "\(player.status.bookPosition ?? -1)")
        #expect(player.status.chapterNumber == 2)

        // When rewind is off and it pauses for 11 s
        try player.perform(.rewind(.off))
        player.advance(by: .milliseconds(300))
        try player.perform(.pause)
        let offAt = try #require(player.status.bookPosition)
        let rewoundBefore = player.notices.count { if case .rewound = $0 { true } else { false } }
        player.advance(by: .seconds(11))
        try player.perform(.play(bookId: nil))

        // Then it resumes where it paused
        #expect(abs((player.status.bookPosition ?? 0) - offAt) < 0.01, "paused at \(offAt), resumed at \(player.status.bookPosition ?? -1)")
        #expect(player.notices.count { if case .rewound = $0 { true } else { false } } == rewoundBefore)
    }

    @Test func theSleepStateIsTypedAndItsJSONIsTheWordsStatusSays() throws {
        // Given each state the timer can be in
        let states: [SleepState] = [.counting(secondsLeft: 12 * 60 + 34), .counting(secondsLeft: 3600), .endOfChapter, .endOfItem, .fading]
        // Then its JSON is the words `status` says, as a client of an older version reads them,
        // and they read back to the same state
        let words = try states.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        #expect(words == [#""12:34 left""#, #""1:00:00 left""#, #""end of chapter""#, #""end of item""#, #""fading out""#])
        for state in states {
            #expect(try JSONDecoder().decode(SleepState.self, from: JSONEncoder().encode(state)) == state)
        }
        // and words that are no state are refused, not taken as one
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(SleepState.self, from: Data(#""soon""#.utf8)) }
    }
}
