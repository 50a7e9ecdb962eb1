import Foundation
import PathNames

/// What an import will do, worked out from the file tree alone: which files make which book.
///
/// A folder with audio files (or with disc folders: CD1, Disc 2, Part 3) is one candidate book; a
/// folder of folders imports each. The importer then splits a candidate by what the files say
/// (`BookGrouping`): single-file books and different albums become books of their own.
public struct ImportPlan: Sendable {
    public struct File: Sendable, Equatable {
        public let path: String
        /// The disc its folder gives, when it is in a disc folder.
        public let folderDisc: Int?
    }

    public struct PlannedBook: Sendable, Equatable {
        /// The folder, or nil for files named on the command line (grouped by album later).
        public let folder: String?
        public let files: [File]
        /// The folders from the folder named on the command line down to this book's folder (not
        /// including the former): what an author-series layout reads authors and series from.
        public var location: [String] = []
        /// Its folder also has sub-folders other than disc folders (books of their own).
        public var holdsOtherBooks = false
    }

    public var books: [PlannedBook] = []
    /// Paths that could not be read at all (missing, unreadable folder).
    public var unreadable: [SkippedFile] = []

    public var fileCount: Int { books.reduce(0) { $0 + $1.files.count } }

    /// Files that are never audio and not worth reporting as skipped.
    static let sidecarExtensions: Set<String> = [
        "jpg", "jpeg", "png", "gif", "bmp", "webp", "txt", "nfo", "cue", "pdf", "m3u", "m3u8", "pls",
        "log", "sfv", "md5", "sha1", "sha256", "json", "xml", "ini", "db", "url", "html", "htm",
        "epub", "doc", "docx", "rtf", "lrc", "srt", "accurip", "ffp", "ds_store",
        // Audiobookshelf's metadata.abs and OPF files.
        "abs", "opf",
    ]

    /// Real paths of the folders planned so far, with the path each was first reached by: a
    /// symbolic link is followed at most once per real path (a `loop.mp3 -> .` made 41 books).
    private var plannedFolders: [String: String] = [:]
    /// Real paths of the files planned so far.
    private var plannedFiles: Set<String> = []

    /// Files never planned, wherever they are: the importing library's own (`LibraryFiles`).
    private let excluded: LibraryFiles?

    public init(paths: [String]) { self.init(paths: paths, excluding: nil) }

    init(paths: [String], excluding excluded: LibraryFiles?) {
        self.excluded = excluded
        var looseFiles: [File] = []
        for path in paths {
            let absolute = Self.absolute(path)
            switch FileKind.of(path: absolute).kind {
            case .directory:
                plan(folder: absolute, location: [])
            case .regular:
                if excluded?.contains(absolute) == true {
                    unreadable.append(SkippedFile(path: path, reason: "the library's own database file, not audio"))
                } else if isFirstVisit(file: absolute, shownAs: path) {
                    looseFiles.append(File(path: absolute, folderDisc: nil))
                }
            case .missing:
                unreadable.append(SkippedFile(path: path, reason: "no such file or folder"))
            case let other:
                skip(path, other)
            }
        }
        if !looseFiles.isEmpty { books.append(PlannedBook(folder: nil, files: looseFiles)) }
    }

    /// Records a skipped entry that is neither a file nor a folder we can read.
    private mutating func skip(_ path: String, _ kind: FileKind) {
        switch kind {
        case .special: unreadable.append(SkippedFile(path: path, reason: "not a regular file"))
        case let .danglingLink(target): unreadable.append(SkippedFile(path: path, reason: "dangling symbolic link (\(target) does not exist)"))
        case let .unreadable(reason): unreadable.append(SkippedFile(path: path, reason: "cannot read it: \(reason)"))
        case .missing: unreadable.append(SkippedFile(path: path, reason: "no such file or folder"))
        case .regular, .directory: break
        }
    }

    /// Whether the file's real path is seen for the first time (else it is reported as skipped).
    /// True the first time the file whose real path is `real` is seen (`realPath(path)` when
    /// not given: a file listed in a folder whose real path is known has it already).
    private mutating func isFirstVisit(file path: String, real known: String? = nil, shownAs shown: String) -> Bool {
        let real = known ?? FileKind.realPath(path) ?? path
        guard plannedFiles.insert(real).inserted else {
            unreadable.append(SkippedFile(path: shown, reason: "the same file as one already imported (\(real))"))
            return false
        }
        return true
    }

    static func absolute(_ path: String) -> String {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        return url.path
    }

    private mutating func plan(folder: String, location: [String]) {
        let real = FileKind.realPath(folder) ?? folder
        if let first = plannedFolders[real] {
            unreadable.append(SkippedFile(path: folder, reason: "symbolic link to a folder already imported (\(first))"))
            return
        }
        plannedFolders[real] = folder
        guard let (files, folders) = listing(folder) else { return }
        let discs = folders.compactMap { name in ItemOrdering.discNumber(folderName: name).map { (name, $0) } }
        let discNames = Set(discs.map(\.0))
        if !files.isEmpty || !discs.isEmpty {
            var bookFiles = files.map { File(path: folder + "/" + $0, folderDisc: nil) }
            for (name, disc) in discs {
                let discFolder = folder + "/" + name
                guard let (discFiles, _) = listing(discFolder) else { continue }
                bookFiles += discFiles.map { File(path: discFolder + "/" + $0, folderDisc: disc) }
            }
            if !bookFiles.isEmpty {
                books.append(PlannedBook(folder: folder, files: bookFiles, location: location,
                                         holdsOtherBooks: folders.contains { !discNames.contains($0) }))
            }
        }
        for name in folders.map(NaturalOrder.Key.init).sorted().map(\.name) where !discNames.contains(name) {
            plan(folder: folder + "/" + name, location: location + [name])
        }
    }

    /// Candidate audio files and sub-folders of `folder` (hidden entries skipped).
    private mutating func listing(_ folder: String) -> ([String], [String])? {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            unreadable.append(SkippedFile(path: folder, reason: "cannot list the folder (permission denied?)"))
            return nil
        }
        let folderReal = FileKind.realPath(folder) ?? folder
        var files: [String] = [], folders: [String] = []
        for name in names where !name.hasPrefix(".") {
            let path = folder + "/" + name
            let isSidecar = Self.sidecarExtensions.contains(fileExtension(of: name))
            let (kind, isLink) = FileKind.of(path: path)
            switch kind {
            case .directory:
                // A link back to this folder or one above it would be listed forever.
                if isLink, let target = FileKind.realPath(path),
                   target == folderReal || target == "/" || folderReal.hasPrefix(target + "/") {
                    unreadable.append(SkippedFile(path: path, reason: "symbolic link loop (it leads back to \(target))"))
                } else {
                    folders.append(name)
                }
            case .regular:
                // Not a link: its real path is its folder's real path and its name (realpath()
                // per file cost a readlink per component of the path, most of an import's syscalls).
                let real = isLink ? nil : folderReal + "/" + name
                // A library kept beside its books: never opened but by SQLite (`LibraryFiles`).
                if excluded?.contains(path) == true { continue }
                if !isSidecar, isFirstVisit(file: path, real: real, shownAs: path) { files.append(name) }
            case .missing:
                continue   // removed while we listed
            case let other:
                if !isSidecar { skip(path, other) }
            }
        }
        return (files, folders)
    }
}
