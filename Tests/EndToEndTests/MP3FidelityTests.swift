import Foundation
import TestSupport
import Testing

/// MP3 files as listeners have them: cut downloads, tags after the audio, Fraunhofer's VBR header.
@Suite struct MP3FidelityTests {
    @Test(arguments: [2, 36, 100])
    func aFrameCutOffBeforeAnID3v1TagIsTheEndNotAnError(bytesIntoFrame: Int) throws {
        // Given a VBR MP3 cut inside a frame halfway, with its ID3v1 tag put back after the cut,
        // and the same cut without the tag
        let whole = try Fixtures.mp3(seconds: 20, vbr: true, id3: ID3Options(title: "Cut", artist: "Someone"))
        let tagged = try Fixtures.mp3CutInsideAFrame(whole, keepingFraction: 0.5, bytesIntoFrame: bytesIntoFrame, keepingID3v1: true)
        let bare = try Fixtures.mp3CutInsideAFrame(whole, keepingFraction: 0.5, bytesIntoFrame: bytesIntoFrame, keepingID3v1: false)
        let abplayer = try AbplayerProcess("mp3-cut-id3v1")
        // When the tagged one is decoded
        let output = abplayer.home.appendingPathComponent("out.wav")
        let result = try abplayer.run(["decode", tagged.path, "-o", output.path])
        // Then it ends normally (libmpg123 said "Error reading the stream": exit 1), with the
        // one truncation warning, and has exactly the audio of the cut without the tag (plus, when
        // the cut frame and the tag together are a frame's length, that frame: libmpg123 fills
        // its body from the tag, as it does for a whole frame)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        let decoded = try WavFile.read(output)
        let reference = try abplayer.decode(bare)
        #expect([0, 1152].contains(decoded.frameCount - reference.frameCount))
        #expect(AudioAnalysis.maxAbsDifference(Array(decoded.samples.prefix(reference.samples.count)), reference.samples) == 0)
        #expect(Double(decoded.frameCount) / 44100 > 9)
    }

    @Test func aVBRIFrameIsSkippedLikeAXingFrame() throws {
        // Given a VBR MP3 without a Xing frame, and the same frames behind a VBRI header frame
        let plain = try Fixtures.mp3(seconds: 20, vbr: true, xingHeader: false)
        let vbri = try Fixtures.mp3WithVBRIHeader(plain)
        let abplayer = try AbplayerProcess("mp3-vbri")
        // When probed and decoded
        let probe = try abplayer.probe(vbri)
        let decoded = try abplayer.decode(vbri)
        // Then the header frame is not audio (libmpg123 played it as 1152 frames of silence):
        // the length and the frames are the plain file's, and ffmpeg's
        let reference = try abplayer.decode(plain)
        #expect(probe.frames == Int64(reference.frameCount))
        #expect(decoded.frameCount == reference.frameCount)
        #expect(AudioAnalysis.maxAbsDifference(decoded.samples, reference.samples) == 0)
        #expect(try Fixtures.ffmpegDecode(vbri).samples.count == decoded.samples.count)
        // and seeks land where they do in the plain file
        let part = try abplayer.decode(vbri, from: "7", to: "8")
        #expect(AudioAnalysis.maxAbsDifference(part.samples, Array(reference.samples[(7 * 44100 * 2)..<(8 * 44100 * 2)])) < 1e-6)
        #expect(AudioAnalysis.secondAt(frame: 22050, in: part.samples, channels: 2, rate: 44100) == 7)
    }

    @Test(arguments: ["Xing", "VBRI"])
    func aFileCutShortOfItsHeaderLengthSaysSoInOneLine(header: String) throws {
        // Given a VBR MP3 whose first frame says how long it is (Xing or VBRI), cut in half
        let whole = header == "Xing" ? try Fixtures.mp3(seconds: 20, vbr: true)
            : try Fixtures.mp3WithVBRIHeader(try Fixtures.mp3(seconds: 20, vbr: true, xingHeader: false))
        let cut = try Fixtures.truncated(whole, keepingFraction: 0.5)
        let abplayer = try AbplayerProcess("mp3-cut-\(header)")
        // When decoded
        let output = abplayer.home.appendingPathComponent("out.wav")
        let result = try abplayer.run(["decode", cut.path, "-o", output.path])
        // Then it plays what it has and says the same one line naming the file, whichever header
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines == ["abplayer: mpg123: \(cut.path): the file is shorter than its \(header) header says: truncated, it plays what it has"])
        let decoded = try WavFile.read(output)
        #expect(AudioAnalysis.secondAt(frame: 5 * 44100 + 22050, in: decoded.samples, channels: 2, rate: 44100) == 5)
    }
}

extension MP3FidelityTests {
    @Test func overDriveMediaMarkersAreChaptersWhenThereAreNoChapFrames() throws {
        // Given a library MP3 whose chapters are an OverDrive MediaMarkers TXXX frame (times as
        // M:SS.mmm and H:MM:SS.mmm, a title with an escaped ampersand)
        let plain = try Fixtures.mp3(seconds: 20, vbr: true, id3: ID3Options(title: "Dune"))
        let markers: [(name: String, time: String)] = [("Chapter 1", "0:00.000"), ("Tom & Jerry", "0:04.250"), ("Chapter 3", "0:00:12.500")]
        let overdrive = try Fixtures.mp3WithOverDriveMarkers(plain, markers: markers)
        // and the same with CHAP frames too, which come first
        let chaptered = try Fixtures.withChapters(plain, chapters: [(0, "Opening"), (10, "Middle")], totalSeconds: 20)
        let both = try Fixtures.mp3WithOverDriveMarkers(chaptered, markers: markers)
        let abplayer = try AbplayerProcess("mp3-overdrive")
        // When probed
        let probe = try abplayer.probe(overdrive)
        // Then the markers are the chapters, at their exact frames, and the XML is not a tag
        #expect(probe.chapters.map(\.title) == ["Chapter 1", "Tom & Jerry", "Chapter 3"])
        #expect(probe.chapters.map(\.startFrame) == [0, 187_425, 551_250])
        #expect(probe.tags["title"] == "Dune")
        #expect(!probe.tags.values.contains { $0.contains("<Markers>") }, "\(probe.tags)")
        // and CHAP frames win over markers
        #expect(try abplayer.probe(both).chapters.map(\.title) == ["Opening", "Middle"])
    }
}

extension MP3FidelityTests {
    @Test func aLAMEHeaderWhosePaddingIsLongerThanTheAudioIsRefusedSayingSo() throws {
        // Given a three-frame MP3 whose LAME header says 4,095 samples of padding (as LAME 3.97
        // wrote some very short files: mutagen's lame397v9short.mp3), made by setting the
        // 12-bit padding field of a real lame header
        let abplayer = try AbplayerProcess("mp3-lame-padding")
        let wav = abplayer.home.appending(path: "short.wav")
        try Command.run("sox", ["-n", "-r", "44100", "-c", "1", "-b", "16", wav.path, "synth", "0.02", "sine", "440"]).requireSuccess()
        let mp3 = abplayer.home.appending(path: "short.mp3")
        try Command.run("lame", ["--quiet", "-V", "9", wav.path, mp3.path]).requireSuccess()
        var bytes = [UInt8](try Data(contentsOf: mp3))
        let lame = try #require(bytes.indices.dropLast(24).first { bytes[$0..<$0 + 4].elementsEqual("LAME".utf8) })
        bytes[lame + 22] |= 0x0F
        bytes[lame + 23] = 0xFF
        try Data(bytes).write(to: mp3)
        // When it is probed
        let result = try abplayer.run(["probe", mp3.path])
        // Then it is refused in one line naming the file and saying what is wrong with it
        #expect(result.status == 1)
        #expect(result.stderr == "abplayer: \(mp3.path): its LAME header's encoder delay and padding (576 + 4095 samples) are longer than "
                + "the 1728 samples of its 3 MPEG frames: nothing is left to play (a damaged or mis-tagged file)\n")
    }
}
