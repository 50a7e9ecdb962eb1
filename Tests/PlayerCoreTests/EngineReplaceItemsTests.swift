import Foundation
import PlayerCore
import Synchronization
import Testing

/// `replaceItems` while an item plays: what is heard goes on sample for sample; only the item's
/// number changes. Counting decoders (each sample its frame's number) and a sink that pulls on its
/// own thread, as in `EngineSeekTests`.
@Suite struct EngineReplaceItemsTests {
    @Test func anItemJoiningBeforeThePlayingOneRenumbersItWithoutAGapOrARepeat() async throws {
        // Given a 30000-frame item playing, heard past its first 300 frames
        let sinks = EngineSeekTests.RecordingOpener()
        let engine = PlaybackEngine(decoders: CountingOpener(), sinks: sinks)
        let events = Mutex<[PlaybackEvent]>([])
        let forwarding = Task.detached { for await event in engine.events { events.withLock { $0.append(event) } } }
        defer { forwarding.cancel() }
        engine.load(["30000"])
        #expect(EngineSeekTests.waitFor(sinks) { ($0.last?.last ?? 0) > 300 })

        // When an item joins before it
        let renumbering = try #require(ItemRenumbering(from: ["30000"], to: ["2000", "30000"]))
        engine.replaceItems(["2000", "30000"], renumbering: renumbering)

        // Then the output was never restarted and every frame came once, in order, on past the
        // replacement
        #expect(EngineSeekTests.waitFor(sinks) { ($0.last?.last ?? 0) > 20000 })
        // The events come through a task of the cooperative pool: waited for without blocking a
        // thread of it (a blocking wait here, with a blocking test of another suite on the other
        // core, would leave the forwarding task no thread to run on).
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline, !events.withLock({ Self.heardAfterReplacement($0) }) {
            try await Task.sleep(for: .milliseconds(20))
        }
        engine.shutdown()
        let starts = EngineSeekTests.starts(sinks)
        #expect(starts.count == 1)
        let heard = starts.first ?? []
        let firstWrong = heard.indices.first { heard[$0] != Float($0) }
        #expect(firstWrong == nil, "frame \(firstWrong.map { "\($0)" } ?? "") heard as \(firstWrong.map { "\(heard[$0])" } ?? "")")
        // and the engine said when it took the list, reporting the item as number 1 from then on
        let reported = events.withLock { $0 }
        let replaced = try #require(reported.firstIndex { if case .itemsReplaced = $0 { true } else { false } })
        let itemsAfter = reported[replaced...].compactMap { if case let .position(heard) = $0 { heard.item } else { nil } }
        #expect(!itemsAfter.isEmpty && itemsAfter.allSatisfy { $0 == 1 }, "\(itemsAfter)")
        #expect(reported[..<replaced].allSatisfy { if case let .position(heard) = $0 { heard.item == 0 } else { true } })
    }

    static func heardAfterReplacement(_ events: [PlaybackEvent]) -> Bool {
        guard let replaced = events.firstIndex(where: { if case .itemsReplaced = $0 { true } else { false } }) else { return false }
        return events[replaced...].contains { if case .position = $0 { true } else { false } }
    }
}
