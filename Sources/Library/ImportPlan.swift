import Foundation

/// What an import will do, worked out from the file tree alone: which files make which book.
///
/// A folder with audio files (or with disc folders: CD1, Disc 2, Part 3) is one book; a folder of
/// folders imports each as a book; a file named on the command line is a single-file book (or,
/// with other loose files of the same album, one book: the importer groups them by album tag).
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
    }

    public var books: [PlannedBook] = []
    /// Paths that could not be read at all (missing, unreadable folder).
    public var unreadable: [(path: String, reason: String)] = []

    public var fileCount: Int { books.reduce(0) { $0 + $1.files.count } }

    /// Files that are never audio and not worth reporting as skipped.
    static let sidecarExtensions: Set<String> = [
        "jpg", "jpeg", "png", "gif", "bmp", "webp", "txt", "nfo", "cue", "pdf", "m3u", "m3u8", "pls",
        "log", "sfv", "md5", "sha1", "sha256", "json", "xml", "ini", "db", "url", "html", "htm",
        "epub", "doc", "docx", "rtf", "lrc", "srt", "accurip", "ffp", "ds_store",
    ]

    public init(paths: [String]) {
        var looseFiles: [File] = []
        for path in paths {
            let absolute = Self.absolute(path)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory) else {
                unreadable.append((path, "no such file or folder"))
                continue
            }
            if isDirectory.boolValue {
                plan(folder: absolute)
            } else {
                looseFiles.append(File(path: absolute, folderDisc: nil))
            }
        }
        if !looseFiles.isEmpty { books.append(PlannedBook(folder: nil, files: looseFiles)) }
    }

    static func absolute(_ path: String) -> String {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        return url.path
    }

    private mutating func plan(folder: String) {
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
            if !bookFiles.isEmpty { books.append(PlannedBook(folder: folder, files: bookFiles)) }
        }
        for name in folders.sorted(by: NaturalOrder.precedes) where !discNames.contains(name) {
            plan(folder: folder + "/" + name)
        }
    }

    /// Candidate audio files and sub-folders of `folder` (hidden entries skipped).
    private mutating func listing(_ folder: String) -> ([String], [String])? {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            unreadable.append((folder, "cannot list the folder (permission denied?)"))
            return nil
        }
        var files: [String] = [], folders: [String] = []
        for name in names where !name.hasPrefix(".") {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                folders.append(name)
            } else if !Self.sidecarExtensions.contains((name as NSString).pathExtension.lowercased()) {
                files.append(name)
            }
        }
        return (files, folders)
    }
}
