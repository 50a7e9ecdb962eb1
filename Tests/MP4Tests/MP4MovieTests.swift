import Foundation
@testable import MP4
import TestSupport
import Testing

/// The parser on real files from ffmpeg, checked against ffprobe's view of the same file.
@Suite struct MP4MovieTests {
    static func chaptered() throws -> URL {
        try Fixtures.aac(seconds: 20, tags: ["title": "Dune", "artist": "Frank Herbert"],
                         chapters: [(0, "One"), (4.5, "Два"), (12.25, "三")])
    }

    @Test func anEditWhoseDurationIsRoundedToMovieTicksEndsWhereTheMediaDoes() throws {
        // Given the first part of a split book from ffmpeg: 163,613 frames, which its edit
        // (in the movie's milliseconds) states as 3,710 ms, 163,611 frames
        let folder = try BuildProducts.temporaryDirectory("mp4-edit-ticks")
        let split = try GaplessSplit(.aac, in: folder)
        // When parsed
        let audio = try MP4Movie.parse(try FileByteSource(path: split.parts[0].path)).audio
        // Then the edit ends where the media (its stts, cut by ffmpeg to the source's end) does
        #expect(audio.samples.totalDuration == 1024 + 163_613)
        #expect(audio.edit == MP4Edit(mediaStart: 1024, duration: 163_613))
    }

    @Test func theAudioTrackMatchesFFprobe() throws {
        // Given an M4B made by ffmpeg (moov after mdat)
        let file = try Self.chaptered()
        // When parsed
        let movie = try MP4Movie.parse(try FileByteSource(path: file.path))
        // Then the track is AAC with ffmpeg's edit (1024 frames of priming, the source's length)
        let audio = movie.audio
        #expect(audio.format == "mp4a" && audio.objectTypeIndication == 0x40)
        #expect(audio.timescale == 44100 && audio.channelCount == 2 && audio.sampleRate == 44100)
        #expect(audio.edit == MP4Edit(mediaStart: 1024, duration: 20 * 44100))
        #expect(try AudioSpecificConfig(audio.decoderConfig).objectType == 2)
        // and every sample's offset and size are the ones ffprobe reports for its packets
        let packets = try Command.run("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries", "packet=pos,size",
                                                  "-of", "csv=p=0", file.path]).requireSuccess()
        let expected = packets.stdoutString.split(separator: "\n").map { line in
            line.split(separator: ",").compactMap { Int($0) }
        }
        #expect(audio.samples.sampleCount == expected.count)
        for (index, fields) in expected.enumerated() where fields.count == 2 {
            // csv order is ffprobe's: size before pos
            let (size, position) = (fields[0], fields[1])
            guard Int(audio.samples.size(ofSample: index)) == size, Int(audio.samples.offset(ofSample: index)) == position else {
                Issue.record("sample \(index): parser says \(audio.samples.size(ofSample: index)) bytes at \(audio.samples.offset(ofSample: index)), ffprobe \(size) at \(position)")
                break
            }
        }
        // and times map back to their samples
        for sample in [0, 1, 100, audio.samples.sampleCount - 1] {
            #expect(audio.samples.sample(at: audio.samples.startTime(ofSample: sample)) == sample)
            #expect(audio.samples.sample(at: audio.samples.startTime(ofSample: sample) + 1) == sample)
        }
    }

    @Test func bothChapterFormsAndTheTagsAreRead() throws {
        let movie = try MP4Movie.parse(try FileByteSource(path: try Self.chaptered().path))
        let titles = ["One", "Два", "三"]
        #expect(movie.quickTimeChapters.map(\.title) == titles)
        #expect(movie.neroChapters.map(\.title) == titles)
        #expect(movie.quickTimeChapters.map { $0.startFrame(rate: 44100) } == [0, 198_450, 540_225])
        #expect(movie.neroChapters.map { $0.startFrame(rate: 44100) } == [0, 198_450, 540_225])
        #expect(movie.tags.contains(MP4Tag(key: "title", value: "Dune")))
        #expect(movie.tags.contains(MP4Tag(key: "artist", value: "Frank Herbert")))
        #expect(movie.warnings.isEmpty)
    }

    @Test func titlesDecodeAsUTF8OrAsUTF16WithABOM() {
        #expect(decodeTitle(ArraySlice(Array("Глава".utf8))) == "Глава")
        let bigEndian: [UInt8] = [0xFE, 0xFF] + "Kapitel ü".utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let littleEndian: [UInt8] = [0xFF, 0xFE] + "第二章".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(decodeTitle(ArraySlice(bigEndian)) == "Kapitel ü")
        #expect(decodeTitle(ArraySlice(littleEndian)) == "第二章")
    }
}

@Suite struct SampleTableLayoutTests {
    @Test func aTrackInOneChunkLocatesTheSameSamples() throws {
        // Given an audio-only M4B (its samples lie back to back in mdat), and the same file
        // rewritten so that stsc/stco describe the whole track as a single chunk, as some muxers
        // write it
        let file = try Fixtures.aac(seconds: 20)
        let original = try MP4Movie.parse(try FileByteSource(path: file.path)).audio.samples
        let stbl = "moov/trak[0]/mdia/minf/stbl"
        var editor = try MP4BoxEditor(file)
        try editor.modify("\(stbl)/stsc") { $0.payload = [0, 0, 0, 0] + MP4BoxEditor.be32(1) + MP4BoxEditor.be32(1) + MP4BoxEditor.be32(UInt32(original.sampleCount)) + MP4BoxEditor.be32(1) }
        try editor.modify("\(stbl)/stco") { $0.payload = [0, 0, 0, 0] + MP4BoxEditor.be32(1) + MP4BoxEditor.be32(UInt32(original.offset(ofSample: 0))) }
        let oneChunk = try MP4Movie.parse(MemoryByteSource(try editor.edited())).audio.samples
        // Then every sample is found at the same offset (through the checkpoints, not by summing
        // from the chunk start)
        #expect(oneChunk.chunkOffsets.count == 1)
        let mismatches = (0..<original.sampleCount).filter { oneChunk.offset(ofSample: $0) != original.offset(ofSample: $0) }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }
}
