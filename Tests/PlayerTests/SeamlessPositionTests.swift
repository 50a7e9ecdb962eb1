import Foundation
import Library
import Listening
@testable import Player
import PlayerCore
import TestSupport
import Testing

/// The place across a file boundary of a book split into gapless files: a book time maps to the
/// item and frame that hold that source frame, and that is the audio heard there.
@Suite struct SeamlessPositionTests {
    @Test(arguments: GaplessSplit.Codec.all)
    func aSeekJustPastAFileBoundaryLandsOnTheSourceFrameInTheNextFile(codec: GaplessSplit.Codec) async throws {
        // Given a library book of the three parts of a 12 s source split at 3.71 s + 2 frames
        // and 8.29 s - 2 frames, playing in real time into a wav file
        let output = try BuildProducts.temporaryDirectory("seamless-seek-out").appending(path: "heard.wav")
        let harness = try ControllerHarness("seamless-seek-\(codec.name)", wavOutput: output)
        let folder = harness.folder.appending(path: "Split")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let split = try GaplessSplit(codec, in: folder)
        try FileManager.default.removeItem(at: split.whole)
        try FileManager.default.moveItem(at: split.source, to: harness.folder.appending(path: "source.wav"))
        _ = try Importer(library: harness.library, inspector: DecoderInspector(decoders: ControllerHarness.registry)).importPaths([folder.path])
        let bookId = try harness.library.books.book(matching: "Split").id!
        let lengths = split.partFrames
        // (played to 1 s into the second part, so the test takes about a second)
        try harness.perform(.playUntil(bookId: bookId, end: PlaybackPosition(item: 1, frame: Int64(codec.rate))))

        // When it seeks to 3.75 s of the book, 40 ms past the first boundary (a whole frame at
        // either rate, so the book time names one frame exactly)
        let target = 3.75
        let targetFrame = Int64(target * Double(codec.rate))
        let seen = harness.events.count
        try harness.perform(.seek(.absolute(seconds: target)))

        // Then the place is item 2 at the book frame less the first part's length, exactly
        let expected = PlaybackPosition(item: 1, frame: targetFrame - lengths[0])
        #expect(harness.controller.session?.position == expected)
        #expect(harness.status.itemNumber == 2)
        // and the engine reports hearing exactly that frame first, then goes on from it
        #expect(await harness.run(until: { harness.events.contains { if case .ended = $0 { true } else { false } } }))
        // (the reports of the first part, made before the seek, come first: the harness takes
        // the events in order once it runs)
        let heard = harness.events.dropFirst(seen).compactMap { if case let .position(place) = $0 { place } else { nil } }
            .drop { $0.item == 0 }
        #expect(heard.first == expected, "\(heard.prefix(3))")
        #expect(heard.allSatisfy { $0.item == 1 && $0.frame >= expected.frame }, "\(Array(heard))")

        // and what is heard after the seek is the source from that frame on, at lag 0: the wav
        // ends with it (what played before the seek, from the top, comes first)
        harness.controller.close()
        let wav = try WavFile.read(output)
        let source = try WavFile.read(harness.folder.appending(path: "source.wav"))
        let tail = Int(lengths[0]) + codec.rate - Int(targetFrame)
        try #require(wav.frameCount >= tail, "\(wav.frameCount) frames heard, \(tail) expected after the seek")
        for channel in 0..<GaplessSplit.channels {
            let after = Array(AudioAnalysis.channel(wav.samples, channels: wav.channels, index: channel).suffix(tail))
            let original = Array(AudioAnalysis.channel(source.samples, channels: source.channels, index: channel)[Int(targetFrame)..<(Int(targetFrame) + tail)])
            #expect(AudioAnalysis.bestLag(after, original, maxLag: 300) == 0, "\(codec) channel \(channel)")
            let correlation = AudioAnalysis.correlation(after, original)
            #expect(correlation > 0.999, "\(codec) channel \(channel): \(correlation)")
        }
    }
}
