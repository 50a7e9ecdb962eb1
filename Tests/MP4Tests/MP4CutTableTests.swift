import Foundation
@testable import MP4
import TestSupport
import Testing

/// Sample tables cut short (their box holds fewer entries than they count): the track is what
/// every table still describes, with the reason kept, instead of a refusal of the whole file.
@Suite struct MP4CutTableTests {
    static let stbl = "moov/trak[0]/mdia/minf/stbl"

    /// The chaptered 5 s fixture with `table`'s payload cut after `keeping` entries of
    /// `entrySize` bytes (its count left as it was).
    static func cut(_ table: String, keeping: Int, entrySize: Int) throws -> [UInt8] {
        var editor = try MP4BoxEditor(try Fixtures.aac(seconds: 5, chapters: [(0, "A"), (2, "B")]))
        try editor.modify("\(stbl)/\(table)") { box in
            let header = table == "stsz" ? 12 : 8
            box.payload = Array(box.payload.prefix(header + keeping * entrySize))
        }
        return try editor.edited()
    }

    static func whole() throws -> MP4Movie {
        try MP4Movie.parse(try FileByteSource(path: try Fixtures.aac(seconds: 5, chapters: [(0, "A"), (2, "B")]).path))
    }

    @Test func aCutSizeTableGivesTheSamplesItLists() throws {
        // Given the fixture whose stsz lists only its first 100 sizes
        let whole = try Self.whole()
        // When parsed
        let movie = try MP4Movie.parse(MemoryByteSource(try Self.cut("stsz", keeping: 100, entrySize: 4)))
        // Then the track is those 100 samples, where they were, and the reason names the table
        #expect(movie.audio.samples.sampleCount == 100)
        #expect((0..<100).allSatisfy { movie.audio.samples.offset(ofSample: $0) == whole.audio.samples.offset(ofSample: $0) })
        #expect(movie.audio.samples.totalDuration == 100 * 1024)
        let reason = try #require(movie.audio.incompleteBecause)
        #expect(reason.contains("moov/trak/mdia/minf/stbl/stsz lists 100 of the \(whole.audio.samples.sampleCount) samples"), "\(reason)")
        // and the tags and chapters are all there
        #expect(movie.chapters.map(\.title) == ["A", "B"])
        #expect(movie.audio.edit?.mediaStart == 1024)
    }

    @Test func aCutChunkOrDurationTableStopsTheTrackWhereItStops() throws {
        // Given the fixture rewritten into chunks of 10 samples (ffmpeg puts a short track in one)
        // with its chunk table then cut after 3 chunks, and the fixture with its duration table
        // cut before its last run (ffmpeg writes two: every sample but the last, and the last)
        let whole = try Self.whole()
        var editor = try MP4BoxEditor(try Fixtures.aac(seconds: 5, chapters: [(0, "A"), (2, "B")]))
        let samples = whole.audio.samples
        let offsets = stride(from: 0, to: samples.sampleCount, by: 10).map { UInt32(samples.offset(ofSample: $0)) }
        try editor.modify("\(Self.stbl)/stsc") { $0.payload = [0, 0, 0, 0] + [1, 1, 10, 1].flatMap { MP4BoxEditor.be32(UInt32($0)) } }
        try editor.modify("\(Self.stbl)/stco") { $0.payload = [0, 0, 0, 0] + MP4BoxEditor.be32(UInt32(offsets.count)) + offsets.prefix(3).flatMap { MP4BoxEditor.be32($0) } }
        let chunks = try MP4Movie.parse(MemoryByteSource(try editor.edited()))
        let durations = try MP4Movie.parse(MemoryByteSource(try Self.cut("stts", keeping: 1, entrySize: 8)))
        // Then the first is the samples of those chunks, the second all but the last sample
        #expect(chunks.audio.samples.sampleCount == 30)
        #expect((0..<30).allSatisfy { chunks.audio.samples.offset(ofSample: $0) == samples.offset(ofSample: $0) })
        #expect(chunks.audio.incompleteBecause?.contains("stco lists 3 of the \(offsets.count) chunks") == true, "\(chunks.audio.incompleteBecause ?? "")")
        #expect(durations.audio.samples.sampleCount == samples.sampleCount - 1)
        #expect(durations.audio.incompleteBecause?.contains("stts lists 1 of the 2 duration runs") == true, "\(durations.audio.incompleteBecause ?? "")")
    }

    @Test func aTableCutBeforeItsFirstEntryIsStillRefused() throws {
        // Given the fixture whose stsz keeps no entry at all
        let bytes = try Self.cut("stsz", keeping: 0, entrySize: 4)
        // When parsed, then it is refused in one error naming the table
        #expect(throws: MP4Error.self) { try MP4Movie.parse(MemoryByteSource(bytes)) }
        do {
            _ = try MP4Movie.parse(MemoryByteSource(bytes))
        } catch {
            #expect(error.box == "moov/trak/mdia/minf/stbl/stsz" && error.reason.contains("before its first sample"), "\(error)")
        }
    }
}
