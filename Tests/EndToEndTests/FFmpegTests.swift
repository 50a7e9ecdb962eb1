import Foundation
import TestSupport
import Testing

/// The catch-all ffmpeg plugin through the built binary: files no other decoder claims play, with
/// their tags and chapters. Length, audio, seeks and bad input: the decoder contract
/// (PluginHostTests/DecoderContract*, the ffmpeg fixtures).
@Suite struct FFmpegTests {
    @Test func aWAVPlaysWholeAndInOrder() throws {
        // Given a 10 s time-coded WAV (16-bit PCM)
        let wav = try Fixtures.ffmpeg(.wav16, seconds: 10)
        let abplayer = try AbplayerProcess("ffmpeg-wav")
        let output = abplayer.home.appendingPathComponent("out.wav")
        // When it plays to a WAV file
        let result = try abplayer.run(["play", "--output", "wav:\(output.path)", wav.path], timeout: 60)
        // Then every frame comes out, each second in its place, sample for sample the source's
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let played = try WavFile.read(output)
        #expect(played.frameCount == 10 * 44100)
        #expect(SecondTrack(played.samples, channels: played.channels, rate: played.rate).seconds == Array(0..<10))
        let source = try WavFile.read(try Fixtures.timeCodedWAV(seconds: 10))
        #expect(AudioAnalysis.maxAbsDifference(played.samples, source.samples) == 0)
    }

    @Test func anALACAudiobookShowsItsChaptersAndPlaysFromOne() throws {
        // Given a 20 s ALAC M4B with tags and three chapters (an ffmetadata file)
        let chapters: [FixtureChapter] = [(0, "Opening"), (4.25, "第二章"), (12.5, "Third")]
        let book = try Fixtures.ffmpeg(.alacM4B, seconds: 20,
                                       tags: ["title": "Children of Dune", "artist": "Frank Herbert", "album": "Dune Chronicles"],
                                       chapters: chapters)
        let abplayer = try AbplayerProcess("ffmpeg-alac")
        // When probed
        let probe = try abplayer.probe(book)
        // Then the catch-all plays it (the AAC decoder declines ALAC), with its exact length,
        // tags and chapters at their frames
        #expect(probe.plugin == "ffmpeg")
        #expect(probe.frames == 20 * 44100 && probe.seekable)
        #expect(probe.tags["title"] == "Children of Dune" && probe.tags["artist"] == "Frank Herbert" && probe.tags["album"] == "Dune Chronicles")
        #expect(probe.chapters.map(\.title) == chapters.map(\.title))
        #expect(probe.chapters.map(\.startFrame) == [0, 187_425, 551_250])
        // and played from 12.5 s (the third chapter), the audio is the source's from there
        let output = abplayer.home.appendingPathComponent("out.wav")
        let result = try abplayer.run(["play", "--from", "12.5", "--output", "wav:\(output.path)", book.path], timeout: 60)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let played = try WavFile.read(output)
        #expect(played.frameCount == 20 * 44100 - 551_250)
        let source = try WavFile.read(try Fixtures.timeCodedWAV(seconds: 20))
        #expect(AudioAnalysis.maxAbsDifference(played.samples, Array(source.samples.dropFirst(551_250 * 2))) == 0)
    }
}
