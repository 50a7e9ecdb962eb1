import Foundation
import TestSupport
import Testing

/// The faad plugin through the built binary: other rates and layouts, iTunSMPB, co64, a 20-hour
/// book, 5.1. Length, audio, exact seeks and bad input of M4B and ADTS files: the decoder contract
/// (PluginHostTests/DecoderContract*).
///
/// Tolerances: libfaad and ffmpeg's own AAC decoder are different implementations of the same
/// float MDCT, measured here to differ by at most 4e-4 on these files; 2e-3 is allowed. A seek is
/// compared with our own continuous decode: on a file without PNS it must match to 1e-6 (it is
/// bit-exact); with PNS (ffmpeg's default) noise-filled bands come from libfaad's random
/// generator, which no seek can put in the continuous decode's state: measured up to 4.2e-4
/// there, 1e-3 allowed (about -60 dBFS, and only in bands that are noise anyway).
@Suite struct AACTests {
    static let rate = 44100

    @Test func monoStaysMonoAndOtherRatesKeepTheirRate() throws {
        // Given a mono 48 kHz M4A (libfaad upmixes mono to stereo unless told otherwise)
        let m4a = try Fixtures.aac(seconds: 10, rate: 48000, channels: 1, bitrate: 64, container: .m4a)
        let abplayer = try AbplayerProcess("aac-mono")
        let decoded = try abplayer.decode(m4a)
        // Then it decodes to one channel at 48 kHz with the exact length
        #expect(decoded.channels == 1 && decoded.rate == 48000)
        #expect(decoded.frameCount == 10 * 48000)
        #expect(AudioAnalysis.secondAt(frame: 7 * 48000 + 24000, in: decoded.samples, channels: 1, rate: 48000) == 7)
    }

    @Test func faststartRenamedAndMoovAtTheEndAllPlayTheSame() throws {
        // Given the same encode with moov at the end, with +faststart, and renamed .mp4 / .m4a
        let atEnd = try Fixtures.aac(seconds: 10)
        let faststart = try Fixtures.aac(seconds: 10, faststart: true)
        let abplayer = try AbplayerProcess("aac-layouts")
        let renamed = abplayer.home.appendingPathComponent("renamed.mp4")
        let noExtension = abplayer.home.appendingPathComponent("book")
        try FileManager.default.copyItem(at: atEnd, to: renamed)
        try FileManager.default.copyItem(at: faststart, to: noExtension)
        // When each is decoded
        let reference = try abplayer.decode(atEnd)
        // Then each is recognised by content and gives the same frames
        #expect(reference.frameCount == 10 * Self.rate)
        for file in [faststart, renamed, noExtension] {
            #expect(try abplayer.probe(file).plugin == "faad", "\(file.lastPathComponent)")
            let decoded = try abplayer.decode(file)
            #expect(decoded.frameCount == reference.frameCount, "\(file.lastPathComponent)")
            #expect(AudioAnalysis.maxAbsDifference(decoded.samples, reference.samples) < 1e-6, "\(file.lastPathComponent)")
        }
    }

    @Test func anITunSMPBRecordTrimsLikeAnEditList() throws {
        // Given the M4B with its edit list removed and an iTunSMPB record in its place (ffmpeg
        // never writes one: the box editor adds what iTunes would: priming 1024, the length)
        let m4b = try Fixtures.aac(seconds: 10)
        let frames = 10 * Self.rate
        let smpb = " 00000000 00000400 \(String(format: "%08X", 2048 - (frames + 1024) % 1024)) \(String(format: "%016X", frames)) 00000000"
        let itunes = try Fixtures.editedMP4(m4b, label: "itunsmpb") { editor in
            try editor.remove("moov/trak[0]/edts")
            try editor.append(MP4BoxEditor.freeform("iTunSMPB", smpb), to: "moov/udta/meta/ilst")
        }
        // and variants whose record claims 1024 more frames of priming, or a second less audio
        // (so that following the record visibly changes the output)
        let morePriming = try Fixtures.editedMP4(m4b, label: "itunsmpb-priming2048") { editor in
            try editor.remove("moov/trak[0]/edts")
            try editor.append(MP4BoxEditor.freeform("iTunSMPB", " 00000000 00000800 00000000 \(String(format: "%016X", frames - 1024))"), to: "moov/udta/meta/ilst")
        }
        let shorter = try Fixtures.editedMP4(m4b, label: "itunsmpb-shorter") { editor in
            try editor.remove("moov/trak[0]/edts")
            try editor.append(MP4BoxEditor.freeform("iTunSMPB", " 00000000 00000400 00000000 \(String(format: "%016X", frames - Self.rate))"), to: "moov/udta/meta/ilst")
        }
        let abplayer = try AbplayerProcess("aac-itunsmpb")
        // When decoded
        let withEdit = try abplayer.decode(m4b)
        let withSMPB = try abplayer.decode(itunes)
        // Then iTunSMPB gives the same frames as the edit list
        #expect(withSMPB.frameCount == frames)
        #expect(AudioAnalysis.maxAbsDifference(withSMPB.samples, withEdit.samples) < 1e-6)
        // and its priming and length are what is followed
        let skipped = try abplayer.decode(morePriming)
        #expect(skipped.frameCount == frames - 1024)
        #expect(AudioAnalysis.maxAbsDifference(skipped.samples, Array(withEdit.samples.dropFirst(2048))) < 1e-6)
        #expect(try abplayer.probe(shorter).frames == Int64(frames - Self.rate))
    }

    @Test func co64OffsetsAbove4GiBAreFollowed() throws {
        // Given the M4B with its audio moved past 4 GiB (a sparse gap) and co64 chunk offsets
        let m4b = try Fixtures.aac(seconds: 10, pns: false)
        let big = try Fixtures.withAudioAbove4GiB(m4b)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: big.path)[.size] as? Int)
        #expect(size > 1 << 32)
        let abplayer = try AbplayerProcess("aac-co64")
        // When decoded, whole and from the middle
        let reference = try abplayer.decode(m4b)
        let decoded = try abplayer.decode(big)
        let part = try abplayer.decode(big, from: "6", to: "7")
        // Then it is the same audio
        #expect(decoded.frameCount == reference.frameCount)
        #expect(AudioAnalysis.maxAbsDifference(decoded.samples, reference.samples) < 1e-6)
        #expect(AudioAnalysis.maxAbsDifference(part.samples, Array(reference.samples[(6 * Self.rate * 2)..<(7 * Self.rate * 2)])) < 1e-6)
    }

    @Test func seeksInATwentyHourBookLandInTheRightSecond() throws {
        // Given a 20-hour M4B whose 4 s blocks follow a non-periodic code
        let book = try LongAACFixture.m4b(hours: 20)
        let rate = LongAACFixture.rate
        let abplayer = try AbplayerProcess("aac-long")
        let probe = try abplayer.probe(book)
        // (remuxed from ADTS, it says nothing of the priming frame in front: that frame is on the
        // timeline, as ffmpeg plays it, 32 ms that shift no second below)
        #expect(probe.frames == Int64(20 * 3600 * rate + 1024))
        for hour in [1, 10, 19] {
            // The first block after the hour whose neighbours a minute and an hour away hold other
            // tones, so that a seek landing a minute or an hour off would hear something else
            let block = try #require((hour * 900..<hour * 900 + 60).first { block in
                [-900, -15, 15, 900].allSatisfy { LongAACFixture.code(ofBlock: block) != LongAACFixture.code(ofBlock: block + $0) }
            })
            let second = block * LongAACFixture.blockSeconds + 1
            let time = String(format: "%d:%02d:%02d", hour, second % 3600 / 60, second % 60)
            let halfLater = String(format: "%d:%02d:%02d.5", hour, second % 3600 / 60, second % 60)
            let end = String(format: "%d:%02d:%02d", hour, (second + 2) % 3600 / 60, (second + 2) % 60)
            // When decoding two seconds from there
            let part = try abplayer.decode(book, from: time, to: end)
            // Then they are the seconds the book has there
            #expect(part.frameCount == 2 * rate)
            for index in 0..<2 {
                let heard = AudioAnalysis.secondAt(frame: index * rate + rate / 2, in: part.samples, channels: 1, rate: rate)
                #expect(heard == LongAACFixture.timeCodedSecond(at: second + index), "at \(time) + \(index) s")
            }
            // and a decode from half a second later is the same frames from there (within the PNS
            // tolerance: this encode is ffmpeg's default, with PNS)
            let later = try abplayer.decode(book, from: halfLater, to: String(format: "%d:%02d:%02d", hour, (second + 1) % 3600 / 60, (second + 1) % 60))
            #expect(later.frameCount == rate / 2)
            #expect(AudioAnalysis.maxAbsDifference(later.samples, Array(part.samples[(rate / 2)..<rate])) < 1e-3)
        }
    }

    @Test func fivePointOneComesOutInSMPTEOrder() throws {
        // Given a 5.1 M4A whose six input channels (FL FR FC LFE BL BR, as ffmpeg reads a 6-channel
        // WAV) each carry their own tone; AAC stores them C, L/R, Ls/Rs, LFE and libfaad gives
        // them in that order
        let abplayer = try AbplayerProcess("aac-5.1")
        let source = abplayer.home.appendingPathComponent("six.wav")
        let m4a = abplayer.home.appendingPathComponent("six.m4a")
        let tones: [Double] = [400, 600, 800, 80, 1200, 1400]
        try Command.run("sox", ["-q", "-n", "-r", "48000", "-c", "6", "-b", "16", source.path, "synth", "3"]
                        + tones.flatMap { ["sine", String(Int($0))] } + ["vol", "0.5"]).requireSuccess()
        try Command.run("ffmpeg", ["-v", "error", "-y", "-i", source.path, "-c:a", "aac", "-b:a", "384k", m4a.path]).requireSuccess()
        // When decoded
        let decoded = try abplayer.decode(m4a)
        // Then it has six channels, each with its own tone where the ABI's SMPTE order puts it
        #expect(decoded.channels == 6 && decoded.frameCount == 3 * 48000)
        for (channel, tone) in tones.enumerated() {
            let heard = AudioAnalysis.dominantFrequency(decoded.samples, channels: 6, channel: channel, rate: 48000, from: 48000, count: 24000)
            #expect(abs(heard - tone) < 5, "channel \(channel): \(heard) Hz, expected \(tone)")
        }
    }
}
