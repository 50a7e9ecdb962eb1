import Foundation
@testable import MP4
import TestSupport
import Testing

/// Movie fragments from ffmpeg, checked against ffprobe's view of the same file.
@Suite struct MP4FragmentTests {
    /// ffprobe's packets of the first audio stream (position and size; ffprobe gives the first
    /// packet of a fragmented file no duration), and the stream's length in its timescale.
    static func packets(_ file: URL) throws -> (packets: [(position: Int, size: Int)], duration: Int64) {
        let result = try Command.run("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries", "packet=pos,size:stream=duration_ts",
                                                 "-of", "default=noprint_wrappers=1", file.path]).requireSuccess()
        var packets: [(Int, Int)] = []
        var fields: [String: Int] = [:]
        for line in result.stdoutString.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let value = Int(parts[1]) else { continue }
            fields[String(parts[0])] = value
            if let position = fields["pos"], let size = fields["size"] {
                packets.append((position, size))
                fields["pos"] = nil
                fields["size"] = nil
            }
        }
        return (packets, Int64(fields["duration_ts"] ?? -1))
    }

    @Test(arguments: FragmentLayout.allCases)
    func everySampleOfEveryFragmentIsWhereFFprobeFindsIt(layout: FragmentLayout) throws {
        // Given a fragmented MP4 from ffmpeg (2 s fragments of a 12 s signal)
        let file = try Fixtures.fragmentedAAC(seconds: 12, layout: layout, fragmentSeconds: 2)
        // When parsed
        let movie = try MP4Movie.parse(try FileByteSource(path: file.path))
        let samples = movie.audio.samples
        // Then the track has every packet ffprobe reads, at its offset, with its size, and the
        // stream's length
        let (expected, duration) = try Self.packets(file)
        #expect(samples.sampleCount == expected.count)
        for (index, packet) in expected.enumerated() {
            guard Int(samples.offset(ofSample: index)) == packet.position, Int(samples.size(ofSample: index)) == packet.size else {
                Issue.record("sample \(index): \(samples.size(ofSample: index)) bytes at \(samples.offset(ofSample: index)); ffprobe: \(packet)")
                break
            }
        }
        #expect(samples.totalDuration == duration)
        // and times map to their samples across fragments (2 s fragments: 86 samples each)
        for sample in [0, 85, 86, 300, samples.sampleCount - 1] {
            #expect(samples.sample(at: samples.startTime(ofSample: sample) + 5) == sample)
        }
        #expect(movie.audio.incompleteBecause == nil && movie.warnings.isEmpty, "\(movie.warnings)")
    }

    @Test func aFileCutInsideItsLastMoofPlaysTheFragmentsBefore() throws {
        // Given a fragmented file cut in the middle of its last moof
        let file = try Fixtures.fragmentedAAC(seconds: 12, layout: .emptyMoov, fragmentSeconds: 2)
        let whole = try MP4Movie.parse(try FileByteSource(path: file.path))
        let bytes = [UInt8](try Data(contentsOf: file))
        let lastMoof = try #require(bytes.lastRange(ofBytes: Array("moof".utf8))).lowerBound - 4
        // When parsed
        let cut = try MP4Movie.parse(MemoryByteSource(Array(bytes[..<(lastMoof + 40)])))
        // Then the samples of the fragments before it are all there, and the reason is given
        let kept = cut.audio.samples.sampleCount
        #expect(kept > 0 && kept < whole.audio.samples.sampleCount)
        #expect((0..<kept).allSatisfy { cut.audio.samples.offset(ofSample: $0) == whole.audio.samples.offset(ofSample: $0) })
        let reason = try #require(cut.audio.incompleteBecause)
        #expect(reason.contains("movie fragment at byte \(lastMoof)"), "\(reason)")
    }
}
