import Foundation
import Library
import Listening
import PlayerCore
import PluginHost
import Testing
import TestSupport

@Suite struct SpeedSessionTests {
    @Test func aSpeedChangeWhilePlayingStartsASessionAtTheNewSpeed() async throws {
        // Given an imported three-item book (1 s items) playing to the test's output (it takes
        // audio only when the test pulls), recorded from speed 1
        let library = try LibraryDatabase()
        _ = try importer(library).importPaths([try Fixtures.audiobookTree().appending(path: "Мастер и Маргарита").path])
        let book = try library.books.book(matching: "Мастер")
        let media = try library.books.items(ofBook: book.id!)
        let recorder = ListeningRecorder(library: library, bookId: book.id!, mediaIds: media.map { $0.id! },
                                         start: PlaybackPosition(item: 0, frame: 0))
        let output = ClockedOutput()
        let engine = PlaybackEngine(decoders: testRegistry, sinks: output)
        engine.load(media.map(\.path))
        // When one and a half items are heard, the speed goes to 2, and the book plays to its end
        // (each session hears over a second: one that heard less is no listening, and is not kept)
        #expect(output.settle(engine))
        let rate = try #require(output.sinkRate)
        #expect(output.pull(rate * 3 / 2) == rate * 3 / 2)
        engine.setSpeed(2)
        #expect(output.settle(engine))
        var pulls = 0
        while engine.state != .stopped && pulls < 100 {
            output.pull(output.sinkRate.map { $0 / 10 } ?? 0)
            _ = output.settle(engine)
            pulls += 1
        }
        #expect(engine.state == .stopped, "the book did not end in \(pulls) pulls of 0.1 s")
        let last = engine.position
        engine.shutdown()
        // (the events were kept in order; the stream ends with the shutdown)
        for await event in engine.events { recorder.handle(event) }
        recorder.finish(at: last)
        // Then two sessions were recorded, at 1 and then at 2
        let sessions = try library.history.sessions(ofBook: book.id!).sorted { $0.id! < $1.id! }
        #expect(sessions.map(\.speed) == [1, 2])
        #expect(sessions.last?.toMediaId == media[2].id)
    }

    @Test func aSessionInWhichNothingWasHeardIsNotKept() throws {
        // Given a book, and a session opened and closed a moment later, a few frames on (a speed
        // key pressed twice: each press ends a session and starts one)
        let library = try LibraryDatabase()
        _ = try importer(library).importPaths([try Fixtures.audiobookTree().appending(path: "Мастер и Маргарита").path])
        let book = try library.books.book(matching: "Мастер")
        let media = try library.books.items(ofBook: book.id!)
        let brief = try library.positions.startSession(bookId: book.id!, mediaId: media[0].id!, frame: 100, speed: 1.1)
        try library.positions.saveProgress(bookId: book.id!, mediaId: media[0].id!, frame: 2_000, session: brief, wallSeconds: 0.2)
        // and a real one: two seconds heard across items
        let real = try library.positions.startSession(bookId: book.id!, mediaId: media[0].id!, frame: 0, speed: 1)
        try library.positions.saveProgress(bookId: book.id!, mediaId: media[1].id!, frame: 0, session: real, wallSeconds: 0.9)
        // When both end, then only the real one is kept
        try library.positions.forgetSessionIfNothingHeard(brief)
        try library.positions.forgetSessionIfNothingHeard(real)
        #expect(try library.history.sessions(ofBook: book.id!).map(\.id) == [real])
    }
}
