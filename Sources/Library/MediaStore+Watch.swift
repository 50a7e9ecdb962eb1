import Foundation
import GRDB
import Synchronization
import PathNames

/// What `LibraryWatch` saw between two passes, as paths: the kernel's events say where, not what
/// a file is, so each pass looks at the files themselves.
struct WatchedChanges: Sendable {
    /// Files or folders deleted or moved away.
    var vanished: Set<String> = []
    /// Files written and closed, files or folders moved in, folders made.
    var appeared: Set<String> = []
    /// The kernel dropped events: every watched folder is looked at again.
    var overflowed = false
    /// Files created and not yet closed by their writer: left alone until they are.
    var writing: Set<String> = []

    var isEmpty: Bool { vanished.isEmpty && appeared.isEmpty && !overflowed }
}

/// The folders the watcher looks at, from the books' `sourcePath`.
struct WatchedFolders: Sendable, Equatable {
    /// A book's folder -> the book (a folder imported as one book).
    var books: [String: Int64] = [:]
    /// The folders holding books' folders or single-file books: a new folder there is a new book.
    var parents: Set<String> = []

    var roots: [String] { Array(parents.union(books.keys)).sorted() }

    /// The book whose folder holds `path` (the deepest, for a book inside another's folder).
    func book(holding path: String) -> (folder: String, id: Int64)? {
        var folder = path
        while folder != "/", !folder.isEmpty {
            if let id = books[folder] { return (folder, id) }
            folder = (folder as NSString).deletingLastPathComponent
        }
        return nil
    }

    /// The folder right below a parent that holds `path` (`path` itself when it is one):
    /// where a new book would be.
    func newBookFolder(holding path: String) -> String? {
        var child = path
        var folder = (path as NSString).deletingLastPathComponent
        while folder != "/", !folder.isEmpty {
            if parents.contains(folder) { return child }
            child = folder
            folder = (folder as NSString).deletingLastPathComponent
        }
        return nil
    }
}

extension MediaStore {
    func watchedFolders() throws -> WatchedFolders {
        let books = try writer.read { db in try Book.fetchAll(db) }
        var folders = WatchedFolders()
        for book in books {
            guard let source = book.sourcePath else { continue }
            switch FileKind.of(path: source).kind {
            case .directory:
                folders.books[source] = book.id!
                folders.parents.insert((source as NSString).deletingLastPathComponent)
            case .regular:
                folders.parents.insert((source as NSString).deletingLastPathComponent)
            default: continue
            }
        }
        folders.parents.remove("/")
        return folders
    }

    /// One pass over what the watcher saw: moved and deleted files first (`rescan`, so a renamed
    /// file keeps its identity and is not added again), then new files into their books, then new
    /// folders as new books. One `LibraryChange` per book touched, and the new folders put off
    /// because a file in them is still being written (the importer would read it half-written).
    /// The files that could not be read are returned too, to be said as import says them.
    func applyWatched(_ changes: WatchedChanges, folders: WatchedFolders, inspector: any MediaInspector) throws
        -> (changes: [LibraryChange], postponed: Set<String>, skipped: [SkippedFile])
    {
        var report = ChangeReport()
        let media = try writer.read { db in try Media.fetchAll(db) }
        func under(_ path: String, _ set: Set<String>) -> Bool {
            var folder = path
            while folder != "/", !folder.isEmpty {
                if set.contains(folder) { return true }
                folder = (folder as NSString).deletingLastPathComponent
            }
            return false
        }
        let roots = Set(folders.roots)
        let toCheck = Set(media.filter {
            changes.overflowed ? under($0.path, roots)
                : under($0.path, changes.vanished) || $0.isMissing && changes.appeared.contains($0.path)
        }.map { $0.id! })
        if !toCheck.isEmpty {
            let rescanned = try rescan(searchRoots: folders.roots, onlyMedia: toCheck)
            for (_, to) in rescanned.moved { try report.note(path: to, in: self) { $0.filesMoved += 1 } }
            try followMovedBookFolders(rescanned.moved)
            for path in rescanned.missing { try report.note(path: path, in: self) { $0.filesMissing += 1 } }
            for path in rescanned.returned { try report.note(path: path, in: self) { $0.filesReturned += 1 } }
        }

        let known = try Set(writer.read { db in try String.fetchAll(db, sql: "SELECT path FROM media") })
        var looked = changes.appeared
        if changes.overflowed { looked.formUnion(folders.books.keys) }
        var additions: [Int64: (folder: String, paths: [String])] = [:]
        var newFolders: Set<String> = []
        var looseFiles: [String] = []
        for path in Self.candidateFiles(in: looked, excluding: ownFiles) where !known.contains(path) && !changes.writing.contains(path) {
            if let (folder, bookId) = folders.book(holding: path) {
                additions[bookId, default: (folder, [])].paths.append(path)
            } else if !changes.overflowed, let folder = folders.newBookFolder(holding: path) {
                if folder == path { looseFiles.append(path) } else { newFolders.insert(folder) }
            }
        }
        for (bookId, addition) in additions.sorted(by: { $0.key < $1.key }) {
            let (added, skipped) = try append(addition.paths, toBook: bookId, folder: addition.folder, inspector: inspector)
            report.skipped += skipped
            guard added > 0 else { continue }
            try report.note(bookId: bookId, in: self) { $0.filesAdded += added }
        }
        var postponed: Set<String> = []
        for folder in newFolders.sorted() {
            if changes.writing.contains(where: { $0.hasPrefix(folder + "/") }) {
                postponed.insert(folder)
                continue
            }
            let shelf = try shelfPath(besideFolder: folder)
            let importer = Importer(writer: writer, ownFiles: ownFiles, inspector: inspector)
            try report.note(try importer.importPaths([folder], shelf: shelf), in: self)
        }
        for path in looseFiles.sorted() { try importLooseFile(path, inspector: inspector, into: &report) }
        return (report.changes, postponed, report.skipped)
    }

    /// A file saved beside book folders (a new M4B in a folder of M4Bs) becomes a book on their
    /// shelf when it is a book by itself (`BookGrouping.isSingleFileBook`); a stray chapter file
    /// there is left alone, as it would be a book of one chapter.
    private func importLooseFile(_ path: String, inspector: any MediaInspector, into report: inout ChangeReport) throws {
        let importer = Importer(writer: writer, ownFiles: ownFiles, inspector: inspector)
        let file: Importer.Inspected
        switch Importer.inspect(.init(path: path, folderDisc: nil), with: inspector) {
        case let .success(inspected): file = inspected
        case let .failure(skipped):
            report.skipped.append(skipped)
            return
        }
        guard BookGrouping.isSingleFileBook(file, minimumSeconds: importer.singleFileBookSeconds) else { return }
        try report.note(try importer.importPaths([path], shelf: try shelfPath(besideFolder: path)), in: self)
    }

    /// A book whose folder was renamed or moved gets the new folder as its `sourcePath`, so the
    /// watch keeps taking new files there into it (rather than making a new book of them).
    private func followMovedBookFolders(_ moved: [(from: String, to: String)]) throws {
        try writer.write { db in
            let books = try Book.fetchAll(db, sql: "SELECT * FROM book WHERE sourcePath IS NOT NULL")
            for var book in books {
                guard let source = book.sourcePath, !FileManager.default.fileExists(atPath: source) else { continue }
                // The file's place inside the book's folder, kept by a move of the whole folder.
                let candidates = Set(moved.compactMap { move -> String? in
                    guard move.from.hasPrefix(source + "/") else { return nil }
                    let inside = move.from.dropFirst(source.count)
                    return move.to.hasSuffix(inside) ? String(move.to.dropLast(inside.count)) : nil
                })
                guard candidates.count == 1, let folder = candidates.first, FileKind.of(path: folder).kind == .directory else { continue }
                book.sourcePath = folder
                try book.update(db)
            }
        }
    }

    /// Inspects the files on every core (as the importer does: 1,000 files one by one took over
    /// 2 s), then adds them to the book and puts it in order in one transaction (one transaction
    /// per file made 1,000 files take 2.8 s). Files that cannot be read are left out (and
    /// returned); a later event about them tries again. Returns how many joined the book.
    ///
    /// `concurrentPerform` on the watch's thread once corrupted the heap in about one test run in
    /// three (`malloc_consolidate(): unaligned fastbin chunk`). Not the decoders: it fills that
    /// thread's libdispatch continuation cache, which the thread's end used after freeing when the
    /// watch was released there; `LibraryWatch.start` explains, and keeps that release out of the
    /// thread's end.
    private func append(_ paths: [String], toBook bookId: Int64, folder: String, inspector: any MediaInspector) throws
        -> (added: Int, skipped: [SkippedFile])
    {
        let inspected = Mutex([Int: Result<Importer.Inspected, SkippedFile>]())
        DispatchQueue.concurrentPerform(iterations: paths.count) { index in
            let result = Importer.inspect(.init(path: paths[index], folderDisc: nil), with: inspector)
            inspected.withLock { $0[index] = result }
        }
        let results = inspected.withLock { $0 }.sorted { $0.key < $1.key }.map(\.value)
        let files = results.compactMap { try? $0.get() }
        let skipped = results.compactMap { result -> SkippedFile? in
            if case let .failure(skipped) = result { skipped } else { nil }
        }
        guard !files.isEmpty else { return (0, skipped) }
        let added = try writer.write { db in
            var ids = try BookStore.items(db, bookId: bookId).map { $0.id! }
            let before = ids.count
            var present = Set(ids)
            for file in files {
                let id = try Importer.upsertMedia(db, file)
                if present.insert(id).inserted { ids.append(id) }
            }
            guard ids.count > before else { return 0 }
            try BookStore.replaceItems(db, bookId: bookId, mediaIds: ids)
            try Self.putInOrder(db, bookId: bookId, folder: folder)
            return ids.count - before
        }
        return (added, skipped)
    }

    /// The book's items in `ItemOrdering` order (disc folders, disc and track tags, names), as an
    /// import would have put them.
    static func putInOrder(_ db: Database, bookId: Int64, folder: String) throws {
        let items = try BookStore.items(db, bookId: bookId)
        let order = ItemOrdering.order(items.map { media in
            let parent = (media.path as NSString).deletingLastPathComponent
            return ItemOrdering.Candidate(
                name: (media.path as NSString).lastPathComponent,
                folderDisc: parent == folder ? nil : ItemOrdering.discNumber(folderName: (parent as NSString).lastPathComponent),
                tagDisc: media.discNumber, track: media.trackNumber)
        })
        let ordered = order.map { items[$0].id! }
        if ordered != items.map({ $0.id! }) { try BookStore.replaceItems(db, bookId: bookId, mediaIds: ordered) }
    }

    /// The shelf of the books whose folders sit in the same folder as `folder`.
    private func shelfPath(besideFolder folder: String) throws -> String? {
        let parent = (folder as NSString).deletingLastPathComponent
        return try writer.read { db in
            let books = try Book.fetchAll(db, sql: "SELECT * FROM book WHERE sourcePath LIKE ? ESCAPE '\\' ORDER BY id",
                                          arguments: [Self.likePrefix(parent + "/")])
            let sibling = books.first { ($0.sourcePath.map { ($0 as NSString).deletingLastPathComponent }) == parent }
            return try sibling.flatMap { try ShelfStore.shelfPath(db, id: $0.shelfId) }
        }
    }

    private static func likePrefix(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_") + "%"
    }

    /// Regular files at or below `paths`, skipping hidden entries (partial downloads and editors'
    /// temporary files are hidden), sidecars that are never audio, and the library's own files
    /// (a library kept beside its books: its log changes every second, and must never be opened
    /// but by SQLite, `LibraryFiles` says why).
    static func candidateFiles(in paths: Set<String>, excluding excluded: LibraryFiles? = nil) -> [String] {
        var files: [String] = []
        func consider(_ path: String) {
            let name = (path as NSString).lastPathComponent
            guard !name.hasPrefix("."), !ImportPlan.sidecarExtensions.contains(fileExtension(of: name)),
                  excluded?.contains(path) != true else { return }
            files.append(path)
        }
        for path in paths {
            switch FileKind.of(path: path).kind {
            case .regular: consider(path)
            case .directory:
                guard let walker = FileManager.default.enumerator(atPath: path) else { continue }
                while let relative = walker.nextObject() as? String {
                    if (relative as NSString).lastPathComponent.hasPrefix(".") {
                        walker.skipDescendants()
                        continue
                    }
                    if walker.fileAttributes?[.type] as? FileAttributeType == .typeRegular { consider(path + "/" + relative) }
                }
            default: continue
            }
        }
        return files
    }
}

/// The changes of one pass, gathered per book in the order books were first touched.
private struct ChangeReport {
    var changes: [LibraryChange] = []
    var skipped: [SkippedFile] = []

    mutating func note(bookId: Int64, in library: MediaStore, _ update: (inout LibraryChange) -> Void) throws {
        if let index = changes.firstIndex(where: { $0.bookId == bookId }) {
            update(&changes[index])
            return
        }
        let title = try library.writer.read { db in try String.fetchOne(db, sql: "SELECT title FROM book WHERE id = ?", arguments: [bookId]) }
        var change = LibraryChange(bookId: bookId, title: title ?? "")
        update(&change)
        changes.append(change)
    }

    /// The books an import in this pass made or added files to.
    mutating func note(_ imported: ImportReport, in library: MediaStore) throws {
        skipped += imported.skipped
        for book in imported.books where book.newFiles > 0 {
            try note(bookId: book.id, in: library) {
                $0.isNewBook = $0.isNewBook || !book.existed
                $0.filesAdded += book.newFiles
            }
        }
    }

    /// Every book holding the media at `path`.
    mutating func note(path: String, in library: MediaStore, _ update: (inout LibraryChange) -> Void) throws {
        let books = try library.writer.read { db in
            try Int64.fetchAll(db, sql: """
                SELECT DISTINCT bookItem.bookId FROM bookItem JOIN media ON media.id = bookItem.mediaId
                WHERE media.path = ? ORDER BY bookItem.bookId
                """, arguments: [path])
        }
        for bookId in books { try note(bookId: bookId, in: library, update) }
    }
}
