import Foundation
@testable import Library
import TestSupport

/// A library folder written file by file for one test: real encoded audio (from `Fixtures`)
/// copied under the names a listener's library has, and sidecar text files.
struct LibraryTree {
    let root: URL

    init(_ name: String) throws {
        root = try BuildProducts.temporaryDirectory(name).appending(path: "Audiobooks")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    /// Copies `file` to `path` (relative to the root), making the folders.
    func put(_ file: URL, at path: String) throws {
        let url = root.appending(path: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: file, to: url)
    }

    func write(_ text: String, at path: String) throws {
        let url = root.appending(path: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// A library in a real file beside the tree.
    func newLibraryPath() -> String { root.deletingLastPathComponent().appending(path: "library.sqlite").path }
}

/// Imports into a library file and reads the books back from a second connection to that file,
/// as the next `abplayer books` would.
func importAndReadBack(
    _ paths: [String], library path: String, shelf: String? = nil, layout: ImportLayout = .folders,
    singleFileBookSeconds: Double? = nil
) throws -> (report: ImportReport, books: [BookListing], library: LibraryDatabase) {
    var worker = importer(try LibraryDatabase(path: path))
    if let singleFileBookSeconds { worker.singleFileBookSeconds = singleFileBookSeconds }
    let report = try worker.importPaths(paths, shelf: shelf, layout: layout)
    let reopened = try LibraryDatabase(path: path)
    return (report, try reopened.catalog.bookListings(), reopened)
}

/// A short MP3 with these tags (one per distinct tag set: fingerprints differ by tags).
func taggedMP3(title: String? = nil, album: String? = nil, artist: String? = nil, track: String? = nil, seconds: Int = 2) throws -> URL {
    try Fixtures.mp3(seconds: seconds, rate: 22050, channels: 1, vbr: true,
                     id3: ID3Options(title: title, artist: artist, album: album, track: track))
}
