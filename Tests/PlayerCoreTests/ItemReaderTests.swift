@testable import PlayerCore
import Testing

/// The play list and the decoder, with decoders that count frames.
@Suite struct ItemReaderTests {
    /// The frames read next, as their numbers.
    static func readFrames(_ reader: inout ItemReader, max: Int) throws -> [Float] {
        let frames = try reader.read(maxFrames: max)
        var samples: [Float] = []
        reader.withDecoded { samples = Array(UnsafeBufferPointer(start: $0, count: frames)) }
        reader.advance(by: frames)
        return samples
    }

    @Test func readsFromASeekToTheRangesEnd() throws {
        // Given a list of one 10 000-frame item whose range ends at frame 6000
        var reader = ItemReader(decoders: CountingOpener())
        reader.load(["10000"], end: PlaybackPosition(item: 0, frame: 6000))
        reader.jump(toItem: 0)
        let info = try reader.openCurrent()
        #expect(info.index == 0 && info.stream.totalFrames == 10000)
        // When it seeks to frame 5000 and reads
        try reader.seek(to: 5000)
        #expect(reader.position == PlaybackPosition(item: 0, frame: 5000))
        #expect(reader.framesBeforeEnd(atMost: 4096) == 1000)
        let frames = try Self.readFrames(&reader, max: reader.framesBeforeEnd(atMost: 4096))
        // Then it gets frames 5000-5999, and nothing more is wanted
        #expect(frames == (5000..<6000).map(Float.init))
        #expect(reader.position == PlaybackPosition(item: 0, frame: 6000))
        #expect(reader.framesBeforeEnd(atMost: 4096) == 0)
        #expect(try reader.read(maxFrames: 0) == 0)
        #expect(reader.rangeEndsHere)
    }

    @Test func theNextItemFollowsThePlayOrderAndAFailedOpenLeavesNoDecoder() throws {
        // Given three items, the second one missing
        var reader = ItemReader(decoders: CountingOpener())
        reader.load(["100", "missing", "300"], end: nil)
        // Then in order, item 0 is followed by 1, and the last by nothing
        #expect(reader.nextItem() == 1)
        reader.begin(item: 2)
        #expect(reader.nextItem() == nil)
        // and with the list repeated, by the first
        reader.order = .repeatList
        #expect(reader.nextItem() == 0)
        // When the missing one is opened: it throws, with no decoder open
        reader.begin(item: 1)
        #expect(throws: AudioError.self) { try reader.openCurrent() }
        #expect(reader.decoder == nil && reader.path == "missing")
    }

    @Test func aJumpToAnotherItemClosesTheDecoder() throws {
        var reader = ItemReader(decoders: CountingOpener())
        reader.load(["100", "200"], end: nil)
        _ = try reader.openCurrent()
        _ = try Self.readFrames(&reader, max: 50)
        reader.jump(toItem: 1)
        #expect(reader.decoder == nil)
        #expect(reader.position == PlaybackPosition(item: 1, frame: 0))
        _ = try reader.openCurrent()
        #expect(try Self.readFrames(&reader, max: 3) == [0, 1, 2])
    }
}
