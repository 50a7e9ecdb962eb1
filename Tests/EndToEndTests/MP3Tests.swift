import Foundation
import TestSupport
import Testing

/// The mpg123 plugin through the built binary: lengths, audio, seeks, tags, chapters, cover.
@Suite struct MP3Tests {
    @Test(arguments: [true, false])
    func gaplessLengthAndAudioMatchTheSourceAndFFmpeg(vbr: Bool) throws {
        // Given a 20 s time-coded MP3 with a LAME/Xing header (encoder delay and padding known)
        let mp3 = try Fixtures.mp3(seconds: 20, vbr: vbr)
        let abplayer = try AbplayerProcess("mp3-gapless")
        // When abplayer probes and decodes it
        let probe = try abplayer.probe(mp3)
        let decoded = try abplayer.decode(mp3)
        let reference = try Fixtures.ffmpegDecode(mp3)
        // Then the length is the source's exactly, and the audio is ffmpeg's decode to within float
        // rounding (both decoders trim the same 1105 frames of delay and the same padding)
        #expect(probe.plugin == "mpg123")
        #expect(probe.frames == Int64(20 * 44100))
        #expect(decoded.frameCount == 20 * 44100)
        #expect(decoded.rate == 44100 && decoded.channels == 2)
        #expect(reference.samples.count == decoded.samples.count)
        #expect(AudioAnalysis.correlation(decoded.samples, reference.samples) > 0.9999)
        #expect(AudioAnalysis.maxAbsDifference(decoded.samples, reference.samples) < 2e-3)
        // and every second carries its own tone
        for second in [0, 5, 13, 19] {
            #expect(AudioAnalysis.secondAt(frame: second * 44100 + 22050, in: decoded.samples, channels: 2, rate: 44100) == second)
        }
    }

    @Test(arguments: [(true, true), (true, false), (false, true)])
    func seeksLandOnTheExactFrame(vbr: Bool, xing: Bool) throws {
        // Given a full decode of the file as the reference for every frame
        let mp3 = try Fixtures.mp3(seconds: 20, vbr: vbr, xingHeader: xing)
        let abplayer = try AbplayerProcess("mp3-seek")
        let full = try abplayer.decode(mp3)
        for (from, to) in [("7.25", "8"), ("0:13.5", "0:14"), ("19.9", "20")] {
            // When decoding starts at a time in the middle
            let part = try abplayer.decode(mp3, from: from, to: to)
            let start = Int((Double(from.replacingOccurrences(of: "0:", with: ""))! * 44100).rounded())
            let count = part.frameCount
            // Then it is exactly the full decode's frames from there (sample-exact seek)
            #expect(count == Int((Double(to.replacingOccurrences(of: "0:", with: ""))! * 44100).rounded()) - start)
            let expected = Array(full.samples[(start * 2)..<((start + count) * 2)])
            #expect(AudioAnalysis.maxAbsDifference(part.samples, expected) < 1e-6, "from \(from)")
        }
        // And the second heard after a seek is the second asked for
        let part = try abplayer.decode(mp3, from: "11", to: "12")
        #expect(AudioAnalysis.secondAt(frame: 22050, in: part.samples, channels: 2, rate: 44100) == 11)
    }

    @Test func aVBRFileWithoutXingGetsAnExactLengthAndACachedIndex() throws {
        // Given a VBR MP3 with no Xing header: no length, no seek table in the file
        let mp3 = try Fixtures.mp3(seconds: 20, vbr: true, xingHeader: false)
        let abplayer = try AbplayerProcess("mp3-noxing")
        // When probed
        let probe = try abplayer.probe(mp3)
        // Then the length is exact (encoder delay unknown, so it is ffmpeg's length, not trimmed)
        let reference = try Fixtures.ffmpegDecode(mp3)
        #expect(probe.frames == Int64(reference.samples.count / 2))
        // and the scan left a frame index in the cache directory for the next open
        let cache = abplayer.home.appendingPathComponent("cache/abplayer")
        let cached = FileManager.default.enumerator(atPath: cache.path)?.allObjects as? [String] ?? []
        #expect(cached.contains { $0.hasPrefix("mpg123") && $0.contains("/") }, "cache holds: \(cached)")
        // and a second probe, using it, says the same
        #expect(try abplayer.probe(mp3).frames == probe.frames)
    }

    @Test func theIndexCacheCanBeTurnedOffWithADecoderOption() throws {
        // Given a VBR MP3 without a Xing header, whose scan is normally cached
        let mp3 = try Fixtures.mp3(seconds: 20, vbr: true, xingHeader: false)
        let abplayer = try AbplayerProcess("mp3-nocache")
        // When probed with the mpg123 decoder's index-cache option off
        let probe = try abplayer.probe(mp3, extra: ["--decoder-option", "mpg123.index-cache=false"])
        // Then the length is still exact, and nothing was written to the cache
        #expect(probe.frames == Int64(try Fixtures.ffmpegDecode(mp3).samples.count / 2))
        let cache = abplayer.home.appendingPathComponent("cache/abplayer")
        let cached = FileManager.default.enumerator(atPath: cache.path)?.allObjects as? [String] ?? []
        #expect(!cached.contains { $0.hasPrefix("mpg123") }, "cache holds: \(cached)")
        // and an option no decoder declares, or a value of the wrong type, is one line naming it
        for (option, says) in [("mpg123.no-such=1", "mpg123 has no option 'no-such'"),
                               ("mpg123.index-cache=maybe", "not true or false"),
                               ("nodecoder.x=1", "no decoder 'nodecoder'")] {
            let result = try abplayer.run(["probe", "--decoder-option", option, mp3.path])
            #expect(result.status == 1, "\(option)")
            #expect(result.stderr.hasPrefix("abplayer: ") && result.stderr.contains(says), "\(option): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(option): \(result.stderr)")
        }
    }

    @Test func tagsAndCoverComeThrough() throws {
        // Given an MP3 with ID3v2 tags and a cover, as lame writes them
        let cover = try Fixtures.coverJPEG()
        let mp3 = try Fixtures.mp3(seconds: 5, vbr: true, id3: ID3Options(
            title: "Dune, Book One", artist: "Frank Herbert", album: "Dune", year: "1965", track: "3/12",
            genre: "Speech", comment: "unabridged", cover: cover))
        // When probed
        let probe = try AbplayerProcess("mp3-tags").probe(mp3)
        // Then the tags and the cover are what went in
        #expect(probe.tags["title"] == "Dune, Book One")
        #expect(probe.tags["artist"] == "Frank Herbert")
        #expect(probe.tags["album"] == "Dune")
        #expect(probe.tags["year"] == "1965")
        #expect(probe.tags["track"] == "3/12")
        #expect(probe.tags["genre"] == "Speech")
        #expect(probe.tags["comment"] == "unabridged")
        #expect(probe.cover?.mimeType == "image/jpeg")
        #expect(probe.cover?.bytes == (try Data(contentsOf: cover)).count)
    }

    @Test func chapterFramesComeThroughSortedWithUnicodeTitles() throws {
        // Given an MP3 with ID3v2 CHAP chapters written by ffmpeg. (lame's own
        // COMM frame makes ffmpeg's remuxer fail with "Incorrect BOM value", so this file carries
        // a title only.)
        let tagged = try Fixtures.mp3(seconds: 20, vbr: true, id3: ID3Options(title: "Dune"))
        let chapters: [FixtureChapter] = [(0, "Opening"), (4.25, "第二章"), (12.5, "Третья «глава»")]
        let mp3 = try Fixtures.withChapters(tagged, chapters: chapters, totalSeconds: 20)
        // When probed
        let probe = try AbplayerProcess("mp3-chapters").probe(mp3)
        // Then the chapters are sorted by start, at the exact frames, with their titles intact
        #expect(probe.tags["title"] == "Dune")
        #expect(probe.chapters.map(\.title) == ["Opening", "第二章", "Третья «глава»"])
        #expect(probe.chapters.map(\.startFrame) == [0, 187_425, 551_250])
        #expect(probe.frames == Int64(20 * 44100))
    }
}
