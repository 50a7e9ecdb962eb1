import Foundation
import TestSupport
import Testing

/// AAC files as other muxers write them, each checked against ffmpeg, which plays them all.
@Suite struct AACFidelityTests {
    static let rate = 44100

    @Test func aConfigWhoseCoreCoderDelayIsMissingPlays() throws {
        // Given the M4B with an AudioSpecificConfig (AAC-LC, 44100 Hz, stereo) whose
        // dependsOnCoreCoder bit is set and which ends there, without the 14-bit delay
        let m4b = try Fixtures.aac(seconds: 5, pns: false)
        let patched = try Fixtures.withAudioSpecificConfig(m4b, label: "corecoder-without-delay", [0x12, 0x12])
        let abplayer = try AbplayerProcess("aac-corecoder")
        // When decoded
        let decoded = try abplayer.decode(patched)
        // Then it plays as the untouched file does (ffmpeg reads the missing bits as zeros)
        let reference = try abplayer.decode(m4b)
        #expect(try Fixtures.ffmpegDecode(patched).samples.count >= reference.samples.count)
        #expect(decoded.rate == Self.rate && decoded.channels == 2)
        #expect(decoded.frameCount == reference.frameCount)
        #expect(AudioAnalysis.maxAbsDifference(decoded.samples, reference.samples) < 1e-6)
    }

    @Test func anEditListStartingAtZeroKeepsTheFirstFrame() throws {
        // Given the M4B with its edit moved to media time 0: the encoder's 1024 frames of priming
        // are part of the timeline, as ffmpeg plays them
        let m4b = try Fixtures.aac(seconds: 10, pns: false)
        let atZero = try Fixtures.editedMP4(m4b, label: "edit-at-0") { editor in
            try editor.modify("moov/trak[0]/edts/elst") { elst in
                // version/flags, entry count, segment duration, then the media time
                elst.payload.replaceSubrange(12..<16, with: MP4BoxEditor.be32(0))
            }
        }
        let abplayer = try AbplayerProcess("aac-edit-at-0")
        // When decoded
        let decoded = try abplayer.decode(atZero)
        let reference = try Fixtures.ffmpegDecode(atZero)
        // Then it has the edit's length, and every frame is where ffmpeg puts it: the first 1024
        // (which libfaad does not emit) are silence, ffmpeg's priming is close to it, and the
        // audio after them is ffmpeg's, not 1024 frames (23 ms) early
        #expect(decoded.frameCount == 10 * Self.rate)
        #expect(reference.samples.count >= decoded.samples.count)
        let prefix = Array(reference.samples.prefix(decoded.samples.count))
        #expect(AudioAnalysis.maxAbsDifference(Array(decoded.samples.dropFirst(2048)), Array(prefix.dropFirst(2048))) < 2e-3)
        #expect(AudioAnalysis.maxAbsDifference(Array(decoded.samples.prefix(2048)), Array(prefix.prefix(2048))) < 0.05)
        #expect(AudioAnalysis.correlation(decoded.samples, prefix) > 0.9999)
        // and a decode from the middle is the same frames
        let part = try abplayer.decode(atZero, from: "4.5", to: "5")
        let start = Int(4.5 * Double(Self.rate))
        #expect(part.frameCount == Self.rate / 2)
        #expect(AudioAnalysis.maxAbsDifference(part.samples, Array(decoded.samples[(start * 2)..<((start + part.frameCount) * 2)])) < 1e-6)
        // and from the very start too
        let head = try abplayer.decode(atZero, from: "0", to: "0.1")
        #expect(AudioAnalysis.maxAbsDifference(head.samples, Array(decoded.samples.prefix(head.samples.count))) < 1e-6)
    }
}

extension AACFidelityTests {
    @Test func probeShowsTheTagsAndChaptersOfAnMP4ThatWillNotPlayAndWhy() throws {
        // Given a tagged M4B with chapters whose sample size table claims 4294967295 entries
        let m4b = try Fixtures.aac(seconds: 5, tags: ["title": "Dune", "artist": "Frank Herbert"],
                                   chapters: [(0, "Opening"), (2.5, "Second")])
        let broken = try Fixtures.editedMP4(m4b, label: "unusable-stsz") { editor in
            try editor.modify("moov/trak[0]/mdia/minf/stbl/stsz") { $0.payload.replaceSubrange(8..<12, with: [0xFF, 0xFF, 0xFF, 0xFF]) }
        }
        let abplayer = try AbplayerProcess("aac-unplayable-probe")
        // When probed, as text and as JSON
        let text = try abplayer.run(["probe", broken.path])
        let json = try abplayer.run(["probe", "--json", broken.path])
        // Then it fails, with the one usual line naming the file and the box
        #expect(text.status == 1 && json.status == 1)
        #expect(text.stderr.split(separator: "\n").count == 1 && text.stderr.contains("stsz"), "\(text.stderr)")
        // and still shows the tags, the chapter list and the reason it will not play
        let shown = text.stdoutString
        #expect(shown.contains("  plays:     no: moov/trak/mdia/minf/stbl/stsz: "), "\(shown)")
        #expect(shown.contains("  title:     Dune\n") && shown.contains("  artist:    Frank Herbert\n"), "\(shown)")
        #expect(shown.contains("  chapters:  2\n") && shown.contains("0:00  Opening") && shown.contains("0:02  Second"), "\(shown)")
        let report = try JSONDecoder().decode(UnplayableJSON.self, from: json.stdout)
        #expect(report.unplayable.contains("stsz"))
        #expect(report.tags["title"] == "Dune")
        #expect(report.chapters.map(\.title) == ["Opening", "Second"])
        #expect(report.chapters.map(\.start) == [0, 2.5])
    }

    struct UnplayableJSON: Decodable {
        struct Chapter: Decodable {
            let start: Double
            let title: String
        }

        let unplayable: String
        let tags: [String: String]
        let chapters: [Chapter]
    }
}

extension AACFidelityTests {
    @Test func withoutAnyPrimingInformationEveryFrameIsOnTheTimeline() throws {
        // Given the M4B without its edit list, iTunSMPB or roll group (ffmpeg's sgpd/sbgp 'roll',
        // which AACPrimingTests shows to skip the priming too): nothing says the first frame is
        // priming
        let m4b = try Fixtures.aac(seconds: 5, pns: false)
        let bare = try Fixtures.editedMP4(m4b, label: "no-edts-no-roll") { editor in
            try editor.remove("moov/trak[0]/edts")
            try editor.remove("moov/trak[0]/mdia/minf/stbl/sgpd")
            try editor.remove("moov/trak[0]/mdia/minf/stbl/sbgp")
        }
        let abplayer = try AbplayerProcess("aac-no-edts")
        // When probed and decoded
        let probe = try abplayer.probe(bare)
        let decoded = try abplayer.decode(bare)
        let reference = try Fixtures.ffmpegDecode(bare)
        // Then the length is the sample table's, the first packet's 1024 frames included (they
        // were dropped: the whole file 23 ms early and 23 ms short), and the frames are ffmpeg's
        // (which also plays the part of the last packet that stts cuts off: compare the prefix)
        #expect(probe.frames == Int64(5 * Self.rate + 1024))
        #expect(decoded.frameCount == 5 * Self.rate + 1024)
        #expect(reference.samples.count >= decoded.samples.count)
        let prefix = Array(reference.samples.prefix(decoded.samples.count))
        #expect(AudioAnalysis.maxAbsDifference(Array(decoded.samples.dropFirst(2048)), Array(prefix.dropFirst(2048))) < 2e-3)
    }
}
