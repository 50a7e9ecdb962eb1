import Foundation
import Library
import PathNames
import PlayerCore

/// Books' covers: the picture a book's files hold, and the same extracted to a file for
/// observers that show a picture by URL (MPRIS's `mpris:artUrl`).
final class CoverFiles {
    private let library: LibraryDatabase
    private let decoders: any DecoderOpener
    /// Cover files written, by book id (nil: the book has none).
    private var files: [Int64: String?] = [:]

    init(library: LibraryDatabase, decoders: any DecoderOpener) {
        self.library = library
        self.decoders = decoders
    }

    /// The book's cover as its file holds it: the first item that has one, read by its decoder;
    /// else the image file found beside the audio at import (cover.jpg, folder.png).
    func picture(ofBook bookId: Int64) -> Picture? {
        let media = (try? library.books.items(ofBook: bookId)) ?? []
        let embedded = media.filter { $0.hasCover && !$0.isMissing }.lazy
            .compactMap { try? self.decoders.openDecoder(path: $0.path).metadata.cover }.first
        if let embedded { return embedded }
        guard let path = (try? library.catalog.bookListing(id: bookId))?.coverPath,
              let data = FileManager.default.contents(atPath: path) else { return nil }
        let isPNG = path.lowercased().hasSuffix(".png")
        return Picture(type: 3, mimeType: isPNG ? "image/png" : "image/jpeg", data: [UInt8](data))
    }

    /// `$XDG_CACHE_HOME/abplayer/covers/<book id>.<jpg|png>`, extracted from the book's files the
    /// first time this process asks (so a cover changed by a rescan shows after a restart); nil
    /// when the book has none or it cannot be written.
    func file(ofBook bookId: Int64) -> String? {
        if let known = files[bookId] { return known }
        let path = picture(ofBook: bookId).flatMap { Self.writeCover($0, bookId: bookId) }
        files[bookId] = .some(path)
        return path
    }

    private static func writeCover(_ picture: Picture, bookId: Int64) -> String? {
        // By its signature: the MIME type a tag claims is often wrong.
        let isPNG = picture.data.starts(with: [0x89, 0x50, 0x4E, 0x47])
        let isJPEG = picture.data.starts(with: [0xFF, 0xD8])
        guard isPNG || isJPEG else { return nil }
        guard let folder = coversFolder() else { return nil }
        let file = folder.appendingPathComponent("\(bookId).\(isPNG ? "png" : "jpg")")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(picture.data).write(to: file, options: .atomic)
            return file.path
        } catch {
            return nil
        }
    }

    /// Nil when neither XDG_CACHE_HOME nor HOME is an absolute path: then no cover file is written.
    static func coversFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        XDGDirectory.path("XDG_CACHE_HOME", default: ".cache", environment: environment)
            .map { URL(fileURLWithPath: $0).appendingPathComponent("abplayer/covers") }
    }
}
