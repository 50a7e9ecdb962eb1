import Foundation
import TestSupport
import Testing

/// A damaged but useful M4B — its sample size table ends early, as in a 47-hour book that
/// ffmpeg and mutagen still read — shows its chapters, tags and cover and plays what its tables
/// describe, with one line saying how much and why. (A file with nothing usable is still refused
/// in one line: AACBadInputTests.)
@Suite struct AACCutTableTests {
    static let rate = 44100
    static let kept = 450

    @Test func anM4BWhoseSizeTableEndsEarlyShowsItsMetadataAndPlaysWhatItDescribes() throws {
        // Given an ffmpeg M4B with tags, a cover and four chapters (the last at 15 s), and a copy
        // whose stsz keeps its count but lists only its first 450 sizes (10.43 s after priming)
        let chapters: [FixtureChapter] = [(0, "Один"), (3, "Two"), (6, "Three"), (15, "Four")]
        let m4b = try Fixtures.aac(seconds: 20, pns: false, tags: ["title": "Long Book", "artist": "Someone"],
                                   chapters: chapters, coverJPEG: try Fixtures.coverJPEG())
        let cut = try Fixtures.editedMP4(m4b, label: "stsz-cut-\(Self.kept)") { editor in
            try editor.modify("moov/trak[0]/mdia/minf/stbl/stsz") { $0.payload = Array($0.payload.prefix(12 + 4 * Self.kept)) }
        }
        let abplayer = try AbplayerProcess("aac-cut-table")
        // When probed and decoded
        let result = try abplayer.run(["probe", "--json", cut.path])
        let decoded = try abplayer.decode(cut)
        let reference = try abplayer.decode(m4b)
        // Then it plays the samples its table lists, less the priming its edit list skips:
        // the undamaged file's first frames
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let probe = try JSONDecoder().decode(ProbeJSON.self, from: result.stdout)
        let frames = (Self.kept - 1) * 1024
        #expect(probe.frames == Int64(frames) && decoded.frameCount == frames)
        #expect(AudioAnalysis.maxAbsDifference(decoded.samples, Array(reference.samples.prefix(decoded.samples.count))) < 1e-6)
        #expect(AudioAnalysis.secondAt(frame: 9 * Self.rate + Self.rate / 2, in: decoded.samples, channels: 2, rate: Self.rate) == 9)
        // and shows its tags, cover and the chapters within what plays
        #expect(probe.tags["title"] == "Long Book" && probe.tags["artist"] == "Someone")
        #expect(probe.cover?.mimeType == "image/jpeg")
        #expect(probe.chapters.map(\.title) == ["Один", "Two", "Three"])
        #expect(probe.chapters.map(\.startFrame) == [0, 3 * 44100, 6 * 44100])
        // and one line says how much of what it declares plays, why, and what is left out
        let lines = result.stderr.split(separator: "\n").map(String.init)
        let seconds = String(format: "%.2f", Double(frames) / Double(Self.rate))
        #expect(lines.count == 1, "stderr: \(result.stderr)")
        #expect(lines.first?.hasPrefix("abplayer: faad: \(cut.path): plays \(seconds) s of the 20.00 s it declares: the sample table ends early (moov/trak/mdia/minf/stbl/stsz lists 450 of the ") == true,
                "\(lines)")
        #expect(lines.first?.hasSuffix("; chapter 'Four' starts after the end of the audio and is left out") == true, "\(lines)")
    }
}
