import Foundation
import Library
import Listening
import PlayerCore
import PluginHost
import Testing
import TestSupport

@Suite struct SpeedSessionTests {
    @Test func aSpeedChangeWhilePlayingStartsASessionAtTheNewSpeed() async throws {
        // Given an imported three-item book (1 s items) playing in real time, recorded from speed 1
        let library = try LibraryDatabase()
        _ = try importer(library).importPaths([try Fixtures.audiobookTree().appending(path: "Мастер и Маргарита").path])
        let book = try library.book(matching: "Мастер")
        let media = try library.items(ofBook: book.id!)
        let recorder = ListeningRecorder(library: library, bookId: book.id!, mediaIds: media.map { $0.id! },
                                         start: PlaybackPosition(item: 0, frame: 0))
        let engine = PlaybackEngine(decoders: testRegistry, sinks: try testRegistry.sinkOpener(pluginID: "null", options: ["paced": "true"]))
        engine.load(media.map(\.path))
        // When the speed goes to 2 once the first item is heard (waiting by blocking this thread:
        // a starved async test once saw the book end first), and the book plays to its end
        Self.setDoubleSpeedOnceHeardAndWaitForTheEnd(engine)
        let last = engine.position
        engine.shutdown()
        // (the events were kept in order; the stream ends with the shutdown)
        for await event in engine.events { recorder.handle(event) }
        recorder.finish(at: last)
        // Then two sessions were recorded, at 1 and then at 2
        let sessions = try library.sessions(ofBook: book.id!).sorted { $0.id! < $1.id! }
        #expect(sessions.map(\.speed) == [1, 2])
        #expect(sessions.last?.toMediaId == media[2].id)
    }

    /// Blocks this thread (never yields it) while the engine plays.
    private static func setDoubleSpeedOnceHeardAndWaitForTheEnd(_ engine: PlaybackEngine) {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(30)
        while (engine.position?.frame ?? 0) == 0 && clock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        engine.setSpeed(2)
        while engine.state != .stopped && clock.now < deadline { Thread.sleep(forTimeInterval: 0.05) }
    }
}
