import Foundation
import TestSupport
import Testing

/// A tag given twice (two TPE1 frames, two ARTIST comments, two ©ART atoms) keeps both values in
/// every plugin, and the host shows them joined; encoder settings are not shown as tags.
@Suite struct RepeatedTagsTests {
    @Test func twoID3ArtistFramesAreBothKept() throws {
        // Given an MP3 whose ID3v2 tag has two TPE1 frames, two comments, and lame's settings
        let plain = try Fixtures.mp3(seconds: 3, vbr: true, xingHeader: false)
        let mp3 = try Fixtures.mp3WithID3Frames(plain, label: "two-artists", [
            .init("TIT2", "Good Omens"), .init("TPE1", "Terry Pratchett"), .init("TPE1", "Neil Gaiman"),
            .init("COMM", "unabridged"), .init("COMM", "read by two"), .init("TSSE", "LAME 3.100 -V 4"),
        ])
        // When probed
        let probe = try AbplayerProcess("tags-id3").probe(mp3)
        // Then both artists and both comments are there, joined, and the encoder settings are not
        #expect(probe.tags["artist"] == "Terry Pratchett; Neil Gaiman")
        #expect(probe.tags["comment"] == "unabridged; read by two")
        #expect(probe.tags["title"] == "Good Omens")
        #expect(probe.tags.keys.allSatisfy { !["tsse", "TSSE", "encoder"].contains($0) }, "\(probe.tags)")
    }

    @Test func twoOpusArtistCommentsAreBothKept() throws {
        // Given an Opus file with two ARTIST comments, as opusenc writes `--artist` twice (with
        // its ENCODER and ENCODER_OPTIONS comments)
        let abplayer = try AbplayerProcess("tags-opus")
        let opus = abplayer.home.appendingPathComponent("two.opus")
        try Command.run("opusenc", ["--quiet", "--bitrate", "32", "--title", "Good Omens", "--artist", "Terry Pratchett",
                                    "--artist", "Neil Gaiman", try Fixtures.timeCodedWAV(seconds: 3).path, opus.path]).requireSuccess()
        // When probed, as text and as JSON
        let probe = try abplayer.probe(opus)
        let text = try abplayer.run(["probe", opus.path]).requireSuccess().stdoutString
        // Then both artists are shown joined, and neither the encoder nor its options are tags
        #expect(probe.tags["artist"] == "Terry Pratchett; Neil Gaiman")
        #expect(probe.tags["encoder"] == nil && probe.tags["encoder_options"] == nil, "\(probe.tags)")
        #expect(text.contains("  artist:    Terry Pratchett; Neil Gaiman\n"), "\(text)")
        #expect(!text.contains("encoder"), "\(text)")
    }

    @Test func twoMP4ArtistAtomsAreBothKeptAndTheLibraryStoresBoth() throws {
        // Given an M4B with a second ©ART atom after ffmpeg's (and ffmpeg's ©too encoder atom)
        let m4b = try Fixtures.aac(seconds: 3, tags: ["title": "Good Omens", "artist": "Terry Pratchett"])
        let twice = try Fixtures.editedMP4(m4b, label: "two-artists") { editor in
            try editor.append(MP4BoxEditor.Node("\u{A9}ART", children: [MP4BoxEditor.textData("Neil Gaiman")]), to: "moov/udta/meta/ilst")
        }
        let abplayer = try AbplayerProcess("tags-mp4")
        // When probed
        let probe = try abplayer.probe(twice)
        // Then both artists are there, and the encoder is not a tag
        #expect(probe.tags["artist"] == "Terry Pratchett; Neil Gaiman")
        #expect(probe.tags["encoder"] == nil, "\(probe.tags)")
        // and when imported, the book's author is both, as shown everywhere
        let folder = abplayer.home.appendingPathComponent("Good Omens")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: twice, to: folder.appendingPathComponent("book.m4b"))
        let library = abplayer.home.appending(path: "library.sqlite").path
        _ = try abplayer.run(["import", "--library", library, folder.path]).requireSuccess()
        let books = try abplayer.run(["books", "--json", "--library", library]).requireSuccess().stdoutString
        #expect(books.contains("\"author\":\"Terry Pratchett; Neil Gaiman\""), "\(books)")
    }
}
