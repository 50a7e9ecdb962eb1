import Foundation
import TestSupport
import Testing

/// One rule for the encoder's priming (the faad plugin's GaplessWindow): skipped when the file
/// declares it — edit list, iTunSMPB (AACTests), a negative composition offset on the first
/// sample, a roll group on it — and kept, as ffmpeg plays it, when nothing does.
@Suite struct AACPrimingTests {
    static let rate = 44100
    static let stbl = "moov/trak[0]/mdia/minf/stbl"

    @Test func rawADTSAndTheSameStreamIn3GPGiveTheSameFrames() throws {
        // Given an HE-AAC ADTS stream (no priming information) and the same frames in a 3GP
        // whose edit list starts at media time 0
        let abplayer = try AbplayerProcess("aac-adts-3gp")
        // When both are decoded
        let adts = try abplayer.decode(HEAACFixture.adts.url)
        let threeGP = try abplayer.decode(HEAACFixture.threeGP.url)
        // Then they are the same frames: all 261 access units of 2,048, the first silence
        #expect(adts.frameCount == 261 * 2048 && threeGP.frameCount == 261 * 2048)
        #expect(adts.rate == Self.rate && threeGP.rate == Self.rate)
        #expect(AudioAnalysis.maxAbsDifference(adts.samples, threeGP.samples) == 0)
        #expect(AudioAnalysis.rms(adts.samples, channels: 2, from: 0, count: 2048) == 0)
        // and the time code is heard (late by the encoder's delay, which neither file states)
        for second in [1, 6, 10] {
            #expect(AudioAnalysis.secondAt(frame: second * Self.rate + Self.rate / 2, in: adts.samples, channels: 2, rate: Self.rate) == second)
        }
    }

    @Test func primingDeclaredByCompositionOffsetOrRollGroupIsSkippedAsAnEditListWouldBe() throws {
        // Given ffmpeg's M4A (edit list from 1024, a roll group of -1 on every sample), and copies
        // without the edit list: one keeping the roll group, one with a ctts whose offsets put
        // every sample 1024 earlier instead, and one with neither
        let m4a = try Fixtures.aac(seconds: 10, container: .m4a, pns: false)
        let sampleCount = try #require(MP4BoxEditor(m4a).node("\(Self.stbl)/stsz").map { MP4BoxEditor.be32($0.payload, 8) })
        let rollOnly = try Fixtures.editedMP4(m4a, label: "no-edit-roll") { try $0.remove("moov/trak[0]/edts") }
        let cttsOnly = try Fixtures.editedMP4(m4a, label: "no-edit-ctts") { editor in
            try editor.remove("moov/trak[0]/edts")
            try editor.remove("\(Self.stbl)/sgpd")
            try editor.remove("\(Self.stbl)/sbgp")
            let offset = UInt32(bitPattern: -1024)
            try editor.append(.full("ctts", version: 1, MP4BoxEditor.be32(1) + MP4BoxEditor.be32(sampleCount) + MP4BoxEditor.be32(offset)), to: Self.stbl)
        }
        let undeclared = try Fixtures.editedMP4(m4a, label: "no-priming-info") { editor in
            try editor.remove("moov/trak[0]/edts")
            try editor.remove("\(Self.stbl)/sgpd")
            try editor.remove("\(Self.stbl)/sbgp")
        }
        let abplayer = try AbplayerProcess("aac-priming")
        // When decoded
        let reference = try abplayer.decode(m4a)
        // Then the roll group and the composition offset each skip what the edit list does, and
        // the stream ends where its last sample does (ffmpeg cut its duration to the source's end)
        #expect(reference.frameCount == 10 * Self.rate)
        for file in [rollOnly, cttsOnly] {
            let decoded = try abplayer.decode(file)
            #expect(decoded.frameCount == reference.frameCount, "\(file.lastPathComponent)")
            #expect(AudioAnalysis.maxAbsDifference(decoded.samples, reference.samples) < 1e-6, "\(file.lastPathComponent)")
        }
        // and with nothing declared the priming plays (silence where libfaad emits nothing)
        let kept = try abplayer.decode(undeclared)
        #expect(kept.frameCount == reference.frameCount + 1024)
        #expect(AudioAnalysis.maxAbsDifference(Array(kept.samples.dropFirst(2048)), reference.samples) < 1e-6)
    }
}
