import Foundation
import TestSupport
import Testing

/// HE-AAC (SBR, and SBR with parametric stereo) through the built binary, on the committed files
/// made by the FDK encoder (Tests/Fixtures/he-aac): the length the edit list states, the time code
/// where the source has it, chapters and tags, seeks.
@Suite struct AACHETests {
    /// How far a second may be heard from where the source has it: libfaad's SBR delay and FDK's
    /// differ by a few frames (measured here: 0 or 1).
    static let alignment = 64

    /// How many frames later than in the source `decoded` (interleaved stereo) has the audio
    /// around the source's frame `frame`: the best cross-correlation lag over half a second.
    static func lag(of decoded: [Float], at frame: Int, source: [Float]) -> Int {
        let window = source.count / HEAACFixture.seconds / 2
        let from = max(0, frame - window / 2), to = min(source.count, frame + window / 2)
        let heard = AudioAnalysis.channel(decoded, channels: 2, index: 0)
        return AudioAnalysis.bestLag(Array(heard[from..<min(to, heard.count)]), Array(source[from..<to]), maxLag: 512)
    }

    @Test(arguments: HEAACFixture.editListed)
    func anEditListedFilePlaysTheSourcesLengthWithEachSecondInPlace(fixture: HEAACFixture) throws {
        // Given an HE-AAC file whose edit list skips the encoder's delay
        let abplayer = try AbplayerProcess("he-aac")
        let rate = fixture.rate
        // When probed and decoded
        let probe = try abplayer.probe(fixture.url)
        let decoded = try abplayer.decode(fixture.url)
        // Then it is stereo at the rate the SBR gives, exactly the source's length
        #expect(probe.rate == rate && probe.channels == 2)
        #expect(probe.frames == Int64(HEAACFixture.seconds * rate))
        #expect(decoded.rate == rate && decoded.channels == 2 && decoded.frameCount == HEAACFixture.seconds * rate)
        // and every second is heard where the source has it, each change of tone within 64 frames
        let source = HEAACFixture.source(rate: rate)
        for second in 0..<HEAACFixture.seconds {
            #expect(AudioAnalysis.secondAt(frame: second * rate + rate / 2, in: decoded.samples, channels: 2, rate: rate) == second,
                    "second \(second) of \(fixture.rawValue)")
            if second > 0 {
                let lag = Self.lag(of: decoded.samples, at: second * rate, source: source)
                #expect(abs(lag) <= Self.alignment, "the change to second \(second) of \(fixture.rawValue) is \(lag) frames off")
            }
        }
    }

    @Test(arguments: HEAACFixture.editListed)
    func theNeroChaptersAndTheTagsAreRead(fixture: HEAACFixture) throws {
        // Given an HE-AAC file with three Nero chapters (Cyrillic, Chinese, Latin titles) and tags
        let abplayer = try AbplayerProcess("he-aac-meta")
        // When probed
        let probe = try abplayer.probe(fixture.url)
        // Then the chapters start where they say, at the output rate, with their titles
        #expect(probe.chapters.map(\.title) == HEAACFixture.chapters.map(\.title))
        #expect(probe.chapters.map(\.startFrame) == HEAACFixture.chapters.map { Int64($0.startSeconds) * Int64(fixture.rate) })
        // and the tags are there
        #expect(probe.tags["title"] == fixture.title)
        #expect(probe.tags["artist"] == "Fixture" && probe.tags["album"] == "HE-AAC")
    }

    @Test(arguments: HEAACFixture.editListed)
    func aSeekLandsOnTheSecondAsked(fixture: HEAACFixture) throws {
        // Given an HE-AAC file and its whole decode
        let abplayer = try AbplayerProcess("he-aac-seek")
        let rate = fixture.rate
        let whole = try abplayer.decode(fixture.url)
        let source = HEAACFixture.source(rate: rate)
        for second in [2, 5, 9, 11] {
            // When decoding one second from a whole second, and half a second across its start
            let part = try abplayer.decode(fixture.url, from: "\(second)", to: "\(second + 1)")
            let across = try abplayer.decode(fixture.url, from: "\(second - 1).75", to: "\(second).25")
            // Then the second is the one asked for, the frames the whole decode has there (SBR
            // and PS state rebuilt by the decoder's preroll: measured bit-exact; 2 packets of
            // preroll left PS stereo 0.6 off for a few frames)
            #expect(part.frameCount == rate && across.frameCount == rate / 2)
            #expect(AudioAnalysis.secondAt(frame: rate / 2, in: part.samples, channels: 2, rate: rate) == second, "\(fixture.rawValue) at \(second) s")
            let start = second * rate * 2
            let difference = AudioAnalysis.maxAbsDifference(part.samples, Array(whole.samples[start..<start + 2 * rate]))
            #expect(difference < 1e-4, "\(fixture.rawValue) from \(second) s: \(difference)")
            // and the change of tone is where the source has it
            let heard = AudioAnalysis.channel(across.samples, channels: 2, index: 0)
            let lag = AudioAnalysis.bestLag(heard, Array(source[(second * rate - rate / 4)..<(second * rate + rate / 4)]), maxLag: 512)
            #expect(abs(lag) <= Self.alignment, "\(fixture.rawValue) across \(second) s is \(lag) frames off")
        }
    }
}
