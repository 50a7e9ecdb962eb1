import Foundation
import TestSupport
import Testing

/// Tags, cover and both chapter forms of M4B files through `abplayer probe`.
@Suite struct AACMetadataTests {
    static let chapters: [FixtureChapter] = [
        (0, "Prologue"), (3.5, "Глава 1"), (7.25, "第二章"), (10, "Kapitel 3 «Ende»"), (14.75, "Épilogue"), (18, "Credits 🎧"),
    ]

    static func book() throws -> URL {
        try Fixtures.aac(seconds: 20, tags: [
            "title": "Children of Dune", "artist": "Frank Herbert", "album": "Dune Chronicles",
            "album_artist": "Herbert, Frank", "composer": "Scott Brick", "genre": "Audiobook",
            "track": "2/6", "disc": "1/3", "date": "1976-04-01", "comment": "unabridged", "description": "Book three",
        ], chapters: chapters, coverJPEG: try Fixtures.coverJPEG())
    }

    static func frames(_ chapters: [FixtureChapter]) -> [Int64] {
        chapters.map { Int64(($0.startSeconds * 44100).rounded()) }
    }

    @Test func tagsCoverAndChaptersComeThrough() throws {
        // Given an M4B made by ffmpeg with tags, a cover and six unicode chapters
        let probe = try AbplayerProcess("aac-tags").probe(try Self.book())
        // Then everything that went into ffmetadata comes out
        #expect(probe.tags["title"] == "Children of Dune")
        #expect(probe.tags["artist"] == "Frank Herbert")
        #expect(probe.tags["album"] == "Dune Chronicles")
        #expect(probe.tags["albumartist"] == "Herbert, Frank")
        #expect(probe.tags["composer"] == "Scott Brick")
        #expect(probe.tags["genre"] == "Audiobook")
        #expect(probe.tags["track"] == "2/6")
        #expect(probe.tags["disc"] == "1/3")
        #expect(probe.tags["year"] == "1976")
        #expect(probe.tags["comment"] == "unabridged")
        #expect(probe.tags["description"] == "Book three")
        #expect(probe.cover?.mimeType == "image/jpeg")
        #expect(probe.cover?.bytes == (try Data(contentsOf: try Fixtures.coverJPEG())).count)
        #expect(probe.chapters.map(\.title) == Self.chapters.map(\.title))
        #expect(probe.chapters.map(\.startFrame) == Self.frames(Self.chapters))
    }

    @Test func eachChapterFormWorksAloneAndTheQuickTimeTrackWinsADisagreement() throws {
        // Given the book with only the Nero chpl (tref/chap removed), with only the QuickTime
        // track (chpl removed), and with a chpl that disagrees with the track
        let book = try Self.book()
        let nero: [FixtureChapter] = [(0, "Nero one"), (5, "Nero two")]
        let neroOnly = try Fixtures.editedMP4(book, label: "nero-only") { try $0.remove("moov/trak[0]/tref") }
        let quickTimeOnly = try Fixtures.editedMP4(book, label: "qt-only") { try $0.remove("moov/udta/chpl") }
        let disagreeing = try Fixtures.editedMP4(book, label: "disagree") { editor in
            try editor.remove("moov/udta/chpl")
            try editor.append(MP4BoxEditor.neroChapters(nero), to: "moov/udta")
        }
        let neroAlone = try Fixtures.editedMP4(book, label: "nero-alone") { editor in
            try editor.remove("moov/trak[0]/tref")
            try editor.remove("moov/udta/chpl")
            try editor.append(MP4BoxEditor.neroChapters(nero), to: "moov/udta")
        }
        let abplayer = try AbplayerProcess("aac-chapters")
        // Then each form alone gives the chapters that went in
        for file in [neroOnly, quickTimeOnly] {
            let probe = try abplayer.probe(file)
            #expect(probe.chapters.map(\.title) == Self.chapters.map(\.title), "\(file.lastPathComponent)")
            #expect(probe.chapters.map(\.startFrame) == Self.frames(Self.chapters), "\(file.lastPathComponent)")
        }
        // and the edited chpl is really read when alone, and loses to the QuickTime track
        #expect(try abplayer.probe(neroAlone).chapters.map(\.title) == nero.map(\.title))
        #expect(try abplayer.probe(neroAlone).chapters.map(\.startFrame) == Self.frames(nero))
        #expect(try abplayer.probe(disagreeing).chapters.map(\.title) == Self.chapters.map(\.title))
    }

    @Test func aNarratorAtomComesThroughAsNarrator() throws {
        // Given the book with a ©nrt atom and a ----:NARRATOR freeform atom on another copy
        let book = try Self.book()
        let atom = try Fixtures.editedMP4(book, label: "nrt") { editor in
            try editor.append(MP4BoxEditor.Node("\u{A9}nrt", children: [MP4BoxEditor.textData("Scott Brick")]), to: "moov/udta/meta/ilst")
        }
        let freeform = try Fixtures.editedMP4(book, label: "narrator-freeform") { editor in
            try editor.append(MP4BoxEditor.freeform("NARRATOR", "Simon Vance"), to: "moov/udta/meta/ilst")
        }
        let abplayer = try AbplayerProcess("aac-narrator")
        #expect(try abplayer.probe(atom).tags["narrator"] == "Scott Brick")
        #expect(try abplayer.probe(freeform).tags["narrator"] == "Simon Vance")
    }
}
