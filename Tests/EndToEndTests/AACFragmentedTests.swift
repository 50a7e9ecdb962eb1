import Foundation
import TestSupport
import Testing

/// Fragmented MP4 (moof/traf/tfhd/tfdt/trun after moov, with mvex/trex defaults) through the
/// built binary, in the three layouts ffmpeg writes: played to the end of the last fragment,
/// exact seeks into later fragments.
@Suite struct AACFragmentedTests {
    static let rate = 44100
    static let seconds = 12
    /// The encoder's priming where nothing in the file states it (an empty moov has no roll
    /// group): it stays on the timeline, as ffmpeg plays it (libfaad emits nothing for the first
    /// frame: silence there). A moov with samples has ffmpeg's roll group (-1), which skips it.
    static func priming(_ layout: FragmentLayout) -> Int {
        layout == .samplesInMoovThenFragments ? 0 : 1024
    }

    @Test(arguments: FragmentLayout.allCases)
    func aFragmentedFilePlaysToItsEndAndSeeksExactly(layout: FragmentLayout) throws {
        // Given the time-coded signal as a fragmented MP4 with 2 s fragments, and the same AAC
        // frames in a plain M4B (ffmpeg's encoder does not know the muxer)
        let fragmented = try Fixtures.fragmentedAAC(seconds: Self.seconds, layout: layout, fragmentSeconds: 2)
        let plain = try Fixtures.aac(seconds: Self.seconds, pns: false)
        let abplayer = try AbplayerProcess("aac-fragmented")
        // When probed and decoded whole
        let probe = try abplayer.probe(fragmented)
        let decoded = try abplayer.decode(fragmented)
        let reference = try abplayer.decode(plain)
        // Then every fragment plays: the source's length, and the priming when nothing trims it
        let priming = Self.priming(layout)
        let frames = Self.seconds * Self.rate + priming
        #expect(probe.frames == Int64(frames))
        #expect(decoded.frameCount == frames)
        // and after the priming it is the plain file's audio, frame for frame
        let shifted = Array(decoded.samples.dropFirst(priming * 2))
        #expect(AudioAnalysis.maxAbsDifference(shifted, reference.samples) < 1e-6)
        for second in [1, 5, 9, 11] {
            let heard = AudioAnalysis.secondAt(frame: priming + second * Self.rate + Self.rate / 2, in: decoded.samples, channels: 2, rate: Self.rate)
            #expect(heard == second, "second \(second) of \(layout)")
        }
        // When decoding from places in later fragments
        for second in [3, 7, 10] {
            let part = try abplayer.decode(fragmented, from: "\(second).5", to: "\(second + 1)")
            // Then each lands exactly: the full decode's frames from there
            let start = (second * Self.rate + Self.rate / 2) * 2
            #expect(part.frameCount == Self.rate / 2)
            #expect(AudioAnalysis.maxAbsDifference(part.samples, Array(decoded.samples[start..<start + Self.rate])) < 1e-6,
                    "from \(second).5 s of \(layout)")
            #expect(AudioAnalysis.secondAt(frame: Self.rate / 4, in: part.samples, channels: 2, rate: Self.rate) == second)
        }
    }

    @Test func anEditThatEndsWithMoovsSamplesDoesNotEndTheFragments() throws {
        // Given a fragmented MP4 whose edit list skips the priming and ends where moov's own
        // samples end (mutagen's no-tags.3g2: 15.00 s of edit, fragments on to 16.35 s)
        let edited = try Fixtures.fragmentedAACWithEditEndingAtMoov(seconds: Self.seconds)
        let plain = try Fixtures.fragmentedAAC(seconds: Self.seconds, layout: .samplesInMoovThenFragments, fragmentSeconds: 2)
        let abplayer = try AbplayerProcess("aac-fragmented-edit")
        // When probed and decoded
        let probe = try abplayer.probe(edited)
        let decoded = try abplayer.decode(edited)
        // Then every fragment plays after moov's samples, as ffmpeg plays them: the source's length
        #expect(probe.frames == Int64(Self.seconds * Self.rate), "\(probe)")
        #expect(decoded.frameCount == Self.seconds * Self.rate)
        #expect(AudioAnalysis.maxAbsDifference(decoded.samples, try abplayer.decode(plain).samples) < 1e-6)
    }
}
