import Foundation
import Library
import Listening
import PluginHost
import TestSupport

/// The built plugins, loaded as the program loads them.
let testRegistry = PluginRegistry(
    searchPath: PluginSearchPath(directories: [
        .init(path: BuildProducts.binDirectory.path, isExplicit: true, filePrefix: "libabplayer-"),
    ]),
    cacheDirectory: nil, log: { _, _, _ in })

/// An importer with the real decoders.
func importer(_ library: LibraryDatabase) -> Importer {
    Importer(library: library, inspector: DecoderInspector(decoders: testRegistry))
}

/// A private copy of the audiobook tree, for tests that move or change files.
func copyOfAudiobookTree(_ name: String) throws -> URL {
    let directory = try BuildProducts.temporaryDirectory(name)
    let copy = directory.appending(path: "books")
    try FileManager.default.copyItem(at: try Fixtures.audiobookTree(), to: copy)
    return copy
}

extension BookListing {
    /// The items' file names in play order.
    var fileNames: [String] { items.map { ($0.path as NSString).lastPathComponent } }
    /// The items' parent folder and file name, "CD1/Chapter 9.mp3".
    var shortPaths: [String] {
        items.map { (($0.path as NSString).deletingLastPathComponent as NSString).lastPathComponent + "/" + ($0.path as NSString).lastPathComponent }
    }
}
