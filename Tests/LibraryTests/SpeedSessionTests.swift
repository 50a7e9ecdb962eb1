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
        // When the speed goes to 2 once the first item is heard, and the book plays to its end
        var changed = false
        for await event in engine.events {
            recorder.handle(event)
            if !changed, case let .position(position) = event, position.frame > 0 {
                engine.setSpeed(2)
                changed = true
            }
            if case .ended = event { break }
        }
        recorder.finish(at: engine.position)
        engine.shutdown()
        // Then two sessions were recorded, at 1 and then at 2
        let sessions = try library.sessions(ofBook: book.id!).sorted { $0.id! < $1.id! }
        #expect(sessions.map(\.speed) == [1, 2])
        #expect(sessions.last?.toMediaId == media[2].id)
    }
}
