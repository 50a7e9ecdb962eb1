import Foundation
import TestSupport
import Testing

/// The in-tree flac plugin through the built binary: tags, chapters, cuesheets, cover. Length,
/// lossless audio, exact seeks and bad input: the decoder contract (PluginHostTests/DecoderContract*).
@Suite struct FLACTests {
    @Test func tagsChapterCommentsAndCoverComeThrough() throws {
        // Given a FLAC file with tags (ARTIST twice), CHAPTERnnn comments and a PICTURE block
        let cover = try Fixtures.coverJPEG()
        let flac = try Fixtures.flac(
            seconds: 20,
            comments: [("TITLE", "Children of Dune"), ("ARTIST", "Frank Herbert"), ("ARTIST", "Brian Herbert"),
                       ("ALBUM", "Dune Chronicles"), ("TRACKNUMBER", "2/6"), ("ENCODER", "flac by hand"),
                       ("ENCODEROPTIONS", "-8")],
            chapters: [(0, "Intro"), (4.5, "Two"), (15.25, "Three")], coverJPEG: cover)
        // When probed
        let probe = try AbplayerProcess("flac-tags").probe(flac)
        // Then
        #expect(probe.plugin == "flac")
        #expect(probe.tags["title"] == "Children of Dune")
        // Both ARTIST comments, joined as the host shows a repeated tag
        #expect(probe.tags["artist"] == "Frank Herbert; Brian Herbert")
        #expect(probe.tags["album"] == "Dune Chronicles")
        #expect(probe.tags["track"] == "2/6")
        #expect(probe.tags["encoder"] == nil && probe.tags["encoderoptions"] == nil)
        #expect(probe.chapters.map(\.title) == ["Intro", "Two", "Three"])
        #expect(probe.chapters.map(\.startFrame) == [0, 198_450, 672_525])
        #expect(probe.cover?.mimeType == "image/jpeg")
        #expect(probe.cover?.bytes == (try Data(contentsOf: cover)).count)
    }

    @Test func aCuesheetGivesChaptersWithoutTheLeadOut() throws {
        // Given a FLAC file whose only chapter marks are an embedded cuesheet (flac --cuesheet):
        // tracks at 0, 4.4 and 15.2 s (cue times count 1/75 s: 4.4 s is 00:04:30)
        let flac = try Fixtures.flac(seconds: 20, comments: [("TITLE", "Cued")], cueIndexSeconds: [0, 4.4, 15.2])
        // When probed
        let probe = try AbplayerProcess("flac-cue").probe(flac)
        // Then each track's INDEX 01 is a chapter, and the lead-out (the end) is not
        #expect(probe.chapters.map(\.startFrame) == [0, 194_040, 670_320])
        #expect(probe.chapters.count == 3)
    }
}

extension FLACTests {
    @Test func aFLACCutShortIsImportedWithTheLengthThatDecodesAndOneCutAfterItsHeaderIsSkipped() throws {
        // Given a folder with a 20 s FLAC cut in half, and one cut just after its header (as an
        // interrupted copy leaves them: STREAMINFO still says 20 s)
        let abplayer = try AbplayerProcess("flac-cut")
        let folder = abplayer.home.appending(path: "books/Cut")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let whole = try Fixtures.flac(seconds: 20)
        let half = folder.appending(path: "01.flac")
        try FileManager.default.copyItem(at: try Fixtures.truncated(whole, keepingFraction: 0.5), to: half)
        let headerOnly = folder.appending(path: "02.flac")
        try Data(try Data(contentsOf: whole).prefix(9000)).write(to: headerOnly)
        // When the folder is imported
        let library = abplayer.home.appending(path: "library.sqlite").path
        let imported = try abplayer.run(["import", "--library", library, folder.path])
        // Then the half file is a book of what decodes (about 10 s, not 20), said once; the other
        // is skipped with one line saying it holds no audio (a file skipped: the exit status 1)
        #expect(imported.status == 1, "\(imported.stderr)")
        let lines = imported.stderr.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.contains(half.path) } == ["abplayer: \(half.path): the file is shorter than its stream info says: truncated, it plays what it has"], "\(lines)")
        #expect(lines.filter { $0.contains(headerOnly.path) } == ["abplayer: skipped \(headerOnly.path): no audio decodes: the file is cut short after its header (truncated)"], "\(lines)")
        let books = try ReplLibraryTests.books(abplayer, library: library)
        #expect(books.count == 1 && abs((books.first?.durationSeconds ?? 0) - 10) < 0.5, "\(books)")
        // and decoding it ends where the audio ends, without a second complaint
        let decoded = try abplayer.run(["decode", half.path, "-o", abplayer.home.appending(path: "half.wav").path])
        #expect(decoded.status == 0 && decoded.stderr.split(separator: "\n").count == 1, "\(decoded.stderr)")
    }
}
