import Foundation
import PathNames

/// Which of a folder's inspected files make which book — the rules docs/guide.md states
/// ("Importing"):
/// - a single-file book (`isSingleFileBook`) is a book of its own, wherever it lies; several of
///   them sharing an album tag are the parts of one book;
/// - the other files of a folder that share an album (or have none) are one book, files with
///   different albums are different books (files without an album join the folder's only album);
/// - files in disc folders (CD1, Disc 2) are one book whatever their tags say: discs are often
///   tagged "Title (Disc 1)", "Title (Disc 2)";
/// - loose files named on the command line: one book per album, else a book per file.
enum BookGrouping {
    /// Extensions of formats made for whole books (chapters inside, any length).
    static let bookContainers: Set<String> = ["m4b", "m4a", "mp4", "aax"]

    /// A file that is a book by itself: an M4B/M4A/MP4 with chapters or longer than
    /// `minimumSeconds`, or any other file (a long Opus or MP3) with chapters and that long.
    static func isSingleFileBook(_ file: Importer.Inspected, minimumSeconds: Double) -> Bool {
        let d = file.description
        let seconds = d.durationFrames.map { Double($0) / Double(d.sampleRate) } ?? 0
        let hasChapters = !d.chapters.isEmpty
        if bookContainers.contains(fileExtension(of: file.file.path)) {
            return hasChapters || seconds >= minimumSeconds
        }
        return hasChapters && seconds >= minimumSeconds
    }

    /// The books `files` make (each in the order given), in the order of their first file.
    static func groups(_ files: [Importer.Inspected], isLoose: Bool, minimumSeconds: Double) -> [[Importer.Inspected]] {
        func album(_ file: Importer.Inspected) -> String? {
            guard let album = file.description.album?.trimmingCharacters(in: .whitespaces), !album.isEmpty else { return nil }
            return album.lowercased()
        }
        var groups: [[Importer.Inspected]] = []
        let singles = files.filter { isSingleFileBook($0, minimumSeconds: minimumSeconds) }
        let rest = files.filter { !isSingleFileBook($0, minimumSeconds: minimumSeconds) }
        groups += byAlbum(singles, album: album, untagged: .eachAlone)
        if isLoose {
            groups += byAlbum(rest, album: album, untagged: .eachAlone)
        } else if rest.contains(where: { $0.file.folderDisc != nil }) {
            groups.append(rest)
        } else {
            groups += byAlbum(rest, album: album, untagged: .joinTheOnlyAlbum)
        }
        let index = Dictionary(files.enumerated().map { ($1.file.path, $0) }, uniquingKeysWith: { first, _ in first })
        return groups.filter { !$0.isEmpty }.sorted { index[$0[0].file.path]! < index[$1[0].file.path]! }
    }

    enum Untagged { case eachAlone, joinTheOnlyAlbum }

    private static func byAlbum(
        _ files: [Importer.Inspected], album: (Importer.Inspected) -> String?, untagged: Untagged
    ) -> [[Importer.Inspected]] {
        var order: [String] = []
        var byAlbum: [String: [Importer.Inspected]] = [:]
        var without: [Importer.Inspected] = []
        for file in files {
            guard let key = album(file) else {
                without.append(file)
                continue
            }
            if byAlbum[key] == nil { order.append(key) }
            byAlbum[key, default: []].append(file)
        }
        var groups = order.map { byAlbum[$0]! }
        switch untagged {
        case .eachAlone:
            groups += without.map { [$0] }
        case .joinTheOnlyAlbum:
            if groups.count == 1 {
                groups[0] += without
            } else if !without.isEmpty {
                groups.append(without)
            }
        }
        return groups
    }
}
