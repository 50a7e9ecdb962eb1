import Foundation
import Library
import Listening
@testable import Player
import TestSupport
import Testing

@Suite struct SidecarCoverTests {
    @Test func aCoverFileBesideTheAudioIsTheCoverOnlyWhenNoFileHoldsOne() throws {
        // Given a book of an untagged MP3 with cover.jpg beside it, and a book whose MP3 holds a
        // picture with a different cover.png beside it
        let folder = try BuildProducts.temporaryDirectory("sidecar-cover")
        let plain = folder.appending(path: "books/Plain")
        let tagged = folder.appending(path: "books/Tagged")
        try FileManager.default.createDirectory(at: plain, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: tagged, withIntermediateDirectories: true)
        let jpeg = try Fixtures.coverJPEG()
        try FileManager.default.copyItem(at: try Fixtures.mp3(seconds: 1, vbr: true), to: plain.appending(path: "01.mp3"))
        try FileManager.default.copyItem(at: jpeg, to: plain.appending(path: "cover.jpg"))
        try FileManager.default.copyItem(at: try Fixtures.mp3(seconds: 1, vbr: true, id3: ID3Options(cover: jpeg)),
                                         to: tagged.appending(path: "01.mp3"))
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]).write(to: tagged.appending(path: "cover.png"))
        let library = try LibraryDatabase(path: folder.appending(path: "library.sqlite").path)
        _ = try Importer(library: library, inspector: DecoderInspector(decoders: ControllerHarness.registry))
            .importPaths([folder.appending(path: "books").path])

        // When their covers are asked for
        let covers = CoverFiles(library: library, decoders: ControllerHarness.registry)
        let books = Dictionary(uniqueKeysWithValues: try library.catalog.bookListings().map { ($0.title, $0.id) })

        // Then the plain book's is the file beside it, the tagged book's the picture in its MP3
        let jpegBytes = [UInt8](try Data(contentsOf: jpeg))
        let plainCover = covers.picture(ofBook: try #require(books["Plain"]))
        #expect(plainCover?.data == jpegBytes && plainCover?.mimeType == "image/jpeg")
        let taggedCover = covers.picture(ofBook: try #require(books["Tagged"]))
        #expect(taggedCover?.data == jpegBytes)
    }
}
