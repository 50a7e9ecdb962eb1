import Foundation
import GRDB
import Synchronization

/// How far an import has got; handed to the caller after every batch of files.
public struct ImportProgress: Sendable {
    public let done: Int
    public let total: Int
}

/// What an import did.
public struct ImportReport: Sendable {
    public struct BookResult: Sendable {
        public let id: Int64
        public let title: String
        public let newFiles: Int
        /// The book existed already (its files were imported before).
        public let existed: Bool
    }

    public var books: [BookResult] = []
    public var filesImported = 0
    public var filesAlreadyPresent = 0
    public var skipped: [SkippedFile] = []
    /// Files imported with a problem the decoder noticed (a file cut short of the length its
    /// header gives): one line each, the file named by the caller.
    public var warnings: [(path: String, message: String)] = []
}

/// Imports files and folders into the library: plans books from the tree, inspects and
/// fingerprints every file (in parallel: the files are independent and the machine has cores),
/// orders each book's items, and writes each book in its own transaction.
public struct Importer: Sendable {
    let writer: any DatabaseWriter
    /// The database's own files, never imported (`LibraryFiles`).
    let ownFiles: LibraryFiles?
    public let inspector: any MediaInspector
    /// Files inspected per batch between progress reports.
    static let batchSize = 64
    /// How long a chapterless M4B/M4A/MP4 must be to be a book by itself (`BookGrouping`); tests
    /// lower it rather than encode 20 minutes.
    var singleFileBookSeconds: Double = 20 * 60

    public init(library: LibraryDatabase, inspector: any MediaInspector) {
        self.init(writer: library.writer, ownFiles: library.media.ownFiles, inspector: inspector)
    }

    /// Into the database `writer` writes (the library watch's imports, from `MediaStore`).
    init(writer: any DatabaseWriter, ownFiles: LibraryFiles?, inspector: any MediaInspector) {
        self.writer = writer
        self.ownFiles = ownFiles
        self.inspector = inspector
    }

    /// One inspected file.
    struct Inspected: Sendable {
        let file: ImportPlan.File
        let size: Int64
        let fingerprint: String
        /// As the decoder read it, then with what sidecars add (chapters, a title).
        var description: MediaDescription
    }

    public func importPaths(
        _ paths: [String], shelf: String? = nil, layout: ImportLayout = .folders,
        progress: (ImportProgress) -> Void = { _ in }
    ) throws -> ImportReport {
        let plan = ImportPlan(paths: paths, excluding: ownFiles)
        var report = ImportReport()
        report.skipped = plan.unreadable
        let shelfId = try shelf.map { try ShelfStore(writer: writer).createShelves(path: $0) }
        let options = BookWriter(shelfId: shelfId, layout: layout, singleFileBookSeconds: singleFileBookSeconds)

        // Books are written on a serial queue while the next files are inspected: writing is
        // one thread's work, inspecting uses every core, and overlapping them made the import
        // about 15% faster here. The writer keeps the books' order.
        let files = plan.books.flatMap(\.files)
        let bookEnds = plan.books.reduce(into: [Int]()) { $0.append(($0.last ?? 0) + $1.files.count) }
        let writes = DispatchQueue(label: "abplayer.import.writer")
        let written = Mutex((report: report, error: (any Error)?.none))
        var results = [Result<Inspected, SkippedFile>?](repeating: nil, count: files.count)
        var done = 0
        var nextBook = 0
        progress(ImportProgress(done: 0, total: files.count))
        while done < files.count || nextBook < plan.books.count {
            if done < files.count {
                let batch = done..<min(files.count, done + Self.batchSize)
                let inspected = Mutex([Int: Result<Inspected, SkippedFile>]())
                DispatchQueue.concurrentPerform(iterations: batch.count) { offset in
                    let index = batch.lowerBound + offset
                    let result = inspect(files[index])
                    inspected.withLock { $0[index] = result }
                }
                for (index, result) in inspected.withLock({ $0 }) { results[index] = result }
                done = batch.upperBound
                progress(ImportProgress(done: done, total: files.count))
            }
            while nextBook < plan.books.count, bookEnds[nextBook] <= done {
                let first = nextBook == 0 ? 0 : bookEnds[nextBook - 1]
                let bookResults = results[first..<bookEnds[nextBook]].map { $0! }
                let planned = plan.books[nextBook]
                writes.async { [writer] in
                    guard written.withLock({ $0.error == nil }) else { return }
                    do {
                        try options.write(bookResults, planned: planned, to: writer, into: written)
                    } catch {
                        written.withLock { $0.error = error }
                    }
                }
                nextBook += 1
            }
        }
        writes.sync {}
        let outcome = written.withLock { $0 }
        if let error = outcome.error { throw error }
        return outcome.report
    }

    private func inspect(_ file: ImportPlan.File) -> Result<Inspected, SkippedFile> {
        Self.inspect(file, with: inspector)
    }

    /// One file's fingerprint and what its decoder says of it (the importer's, and the library
    /// watch's for files that join a book).
    static func inspect(_ file: ImportPlan.File, with inspector: any MediaInspector) -> Result<Inspected, SkippedFile> {
        guard let (size, fingerprint) = Fingerprint.of(path: file.path) else {
            return .failure(SkippedFile(path: file.path, reason: "cannot read the file"))
        }
        do {
            return .success(Inspected(file: file, size: size, fingerprint: fingerprint,
                                      description: try inspector.inspect(path: file.path)))
        } catch {
            return .failure(SkippedFile(path: file.path, reason: "\(error)"))
        }
    }

    static func upsertMedia(_ db: Database, _ file: Inspected) throws -> Int64 {
        // Cached statements: preparing (and authorizing) a statement per file cost more than the
        // rest of the write.
        let byPath = try db.cachedStatement(sql: "SELECT * FROM media WHERE path = ?")
        let movedHere = try db.cachedStatement(sql: "SELECT * FROM media WHERE fingerprint = ? AND isMissing LIMIT 1")
        let existing = try Media.fetchOne(byPath, arguments: [file.file.path])
            ?? Media.fetchOne(movedHere, arguments: [file.fingerprint])
        let d = file.description
        let chapters = String(decoding: try JSONEncoder().encode(d.chapters), as: UTF8.self)
        let media = Media(
            id: existing?.id, path: file.file.path, size: file.size, fingerprint: file.fingerprint, isMissing: false,
            title: d.title, artist: d.artist, album: d.album, albumArtist: d.albumArtist, composer: d.composer,
            narrator: d.narrator, genre: d.genre, year: d.year, trackNumber: d.trackNumber, trackCount: d.trackCount,
            discNumber: d.discNumber, discCount: d.discCount, sampleRate: d.sampleRate, durationFrames: d.durationFrames,
            chapters: chapters, hasCover: d.hasCover)
        if existing != nil {
            try media.update(db)
            return media.id!
        }
        // A cached INSERT rather than the record's `insert`, which builds its statement per call.
        let insert = try db.cachedStatement(sql: """
            INSERT INTO media (path, size, fingerprint, isMissing, title, artist, album, albumArtist, composer, narrator,
                genre, year, trackNumber, trackCount, discNumber, discCount, sampleRate, durationFrames, chapters, hasCover)
            VALUES (?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        try insert.execute(arguments: [
            media.path, media.size, media.fingerprint, media.title, media.artist, media.album, media.albumArtist,
            media.composer, media.narrator, media.genre, media.year, media.trackNumber, media.trackCount,
            media.discNumber, media.discCount, media.sampleRate, media.durationFrames, media.chapters, media.hasCover,
        ])
        return db.lastInsertedRowID
    }
}
