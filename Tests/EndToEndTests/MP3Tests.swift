import Foundation
import TestSupport
import Testing

/// The mpg123 plugin through the built binary: the index cache and its option, ID3 tags and cover.
/// Lengths, audio, exact seeks, chapters and bad input: the decoder contract
/// (PluginHostTests/DecoderContract*).
@Suite struct MP3Tests {
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
}
