import Foundation
import GRDB
import Synchronization

/// Turns a planned folder's inspected files into books: groups them (`BookGrouping`), adds what
/// the sidecars say (`BookSidecars`, `ChapterSidecars`) and the folder layout, and writes each
/// book in its own transaction.
struct BookWriter: Sendable {
    let shelfId: Int64?
    let layout: ImportLayout
    let singleFileBookSeconds: Double

    /// What a book knows beyond its files.
    struct Context {
        var folder: String?
        /// The book is everything its folder holds, so the folder's name and sidecars are its own.
        var ownsFolder: Bool
        var sidecars = BookSidecars()
        var location: BookLocation?
    }

    func write(
        _ results: [Result<Importer.Inspected, SkippedFile>], planned: ImportPlan.PlannedBook,
        to writer: any DatabaseWriter, into written: borrowing Mutex<(report: ImportReport, error: (any Error)?)>
    ) throws {
        var good: [Importer.Inspected] = []
        for result in results {
            switch result {
            case let .success(inspected):
                good.append(inspected)
                for warning in inspected.description.warnings {
                    written.withLock { $0.report.warnings.append((inspected.file.path, warning)) }
                }
            case let .failure(failure): written.withLock { $0.report.skipped.append(failure) }
            }
        }
        good = Self.withChapterSidecars(good)
        let groups = BookGrouping.groups(good, isLoose: planned.folder == nil, minimumSeconds: singleFileBookSeconds)
        // A folder holding only single-file books is not a book's folder when it holds several, or
        // other book folders, or (in an author-series tree) is an author's: its name and sidecars
        // are not a book's (`Books/One.m4b`, `Author/Book.m4b`, `Author/Series/Book 3 - Title.m4b`).
        let onlySingles = groups.allSatisfy { $0.allSatisfy { BookGrouping.isSingleFileBook($0, minimumSeconds: singleFileBookSeconds) } }
        let holdsBooks = onlySingles
            && (groups.count > 1 || planned.holdsOtherBooks || layout == .authorSeries && planned.location.count == 1)
        for group in groups {
            var context = Context(folder: planned.folder, ownsFolder: planned.folder != nil && groups.count == 1 && !holdsBooks)
            if let folder = planned.folder, context.ownsFolder { context.sidecars = BookSidecars(folder: folder) }
            if layout == .authorSeries, planned.folder != nil {
                context.location = holdsBooks ? BookLocation(container: planned.location, file: group[0].file.path)
                    : BookLocation(components: planned.location)
            }
            let result = try writer.write { db in try store(db, files: group, context: context) }
            written.withLock {
                $0.report.books.append(result)
                $0.report.filesImported += result.newFiles
                $0.report.filesAlreadyPresent += group.count - result.newFiles
            }
        }
    }

    /// The files with the chapters (and titles) of the cue sheets and chapter lists beside them;
    /// what a file holds itself wins.
    static func withChapterSidecars(_ files: [Importer.Inspected]) -> [Importer.Inspected] {
        let folders = Dictionary(grouping: files.map(\.file.path), by: { ($0 as NSString).deletingLastPathComponent })
        var found: [String: ChapterSidecars.Found] = [:]
        for (folder, paths) in folders { found.merge(ChapterSidecars.read(folder: folder, files: paths)) { first, _ in first } }
        return files.map { file in
            guard let sidecar = found[file.file.path] else { return file }
            var file = file
            let rate = Double(file.description.sampleRate)
            if file.description.chapters.isEmpty, let chapters = sidecar.chapters {
                file.description.chapters = chapters.map { ChapterMark(startFrame: Int64(($0.startSeconds * rate).rounded()), title: $0.title) }
            }
            if file.description.title == nil, let title = sidecar.title { file.description.title = title }
            return file
        }
    }

    /// Writes one book: its media (matched to known media by path, then a missing media by
    /// fingerprint — a file that moved), and the book, or the existing book those media are in.
    func store(_ db: Database, files: [Importer.Inspected], context: Context) throws -> ImportReport.BookResult {
        let order = ItemOrdering.order(files.map {
            ItemOrdering.Candidate(name: ($0.file.path as NSString).lastPathComponent, folderDisc: $0.file.folderDisc,
                                   tagDisc: $0.description.discNumber, track: $0.description.trackNumber)
        })
        var ordered = order.map { files[$0] }
        if let chapters = context.sidecars.metadata?.chapters, !chapters.isEmpty {
            Self.addBookChapters(chapters, to: &ordered)
        }
        var mediaIds: [Int64] = []
        for file in ordered { mediaIds.append(try Importer.upsertMedia(db, file)) }

        let existingBookId = try Int64.fetchOne(db.cachedStatement(sql: """
            SELECT bookId FROM bookItem WHERE mediaId IN (SELECT value FROM json_each(?))
            GROUP BY bookId ORDER BY count(*) DESC LIMIT 1
            """), arguments: [String(decoding: try JSONEncoder().encode(mediaIds), as: UTF8.self)])
        if let existingBookId {
            let present = try Set(Int64.fetchAll(db, sql: "SELECT mediaId FROM bookItem WHERE bookId = ?", arguments: [existingBookId]))
            let added = mediaIds.filter { !present.contains($0) }
            let current = try BookStore.items(db, bookId: existingBookId).map { $0.id! }
            if !added.isEmpty { try BookStore.replaceItems(db, bookId: existingBookId, mediaIds: current + added) }
            let title = try String.fetchOne(db, sql: "SELECT title FROM book WHERE id = ?", arguments: [existingBookId]) ?? ""
            return ImportReport.BookResult(id: existingBookId, title: title, newFiles: added.count, existed: true)
        }
        var book = try makeBook(db, ordered: ordered, context: context)
        try book.insert(db)
        try BookStore.replaceItems(db, bookId: book.id!, mediaIds: mediaIds)
        return ImportReport.BookResult(id: book.id!, title: book.title, newFiles: mediaIds.count, existed: false)
    }

    /// The book's fields, each from the first source that has it, in Audiobookshelf's order of
    /// trust: `metadata.json`, then `desc.txt`/`reader.txt`, then the tags, then the folders.
    private func makeBook(_ db: Database, ordered: [Importer.Inspected], context: Context) throws -> Book {
        let first = ordered[0].description
        let json = context.sidecars.metadata
        let location = context.location
        let folderName = context.folder.map { ($0 as NSString).lastPathComponent }
        // A book that is its folder, or several files of it, is named by the folder when untagged;
        // one file among others by its own title or name (never a file that could not be read:
        // those are not in `ordered`).
        let folderTitle = context.ownsFolder || ordered.count > 1 ? location.flatMap { $0.isNamedByFile ? nil : $0.name.title } ?? folderName : nil
        let fileTitle = location?.isNamedByFile == true ? location?.name.title : nil
        let fallback = folderTitle ?? Self.nonBlank(first.title) ?? fileTitle
            ?? ((ordered[0].file.path as NSString).lastPathComponent as NSString).deletingPathExtension
        // Files that disagree on the album (discs tagged "Title (Disc 1)", "Title (Disc 2)") are
        // named by their folder.
        let albums = Set(ordered.compactMap { Self.nonBlank($0.description.album) })
        let album = albums.count == 1 ? albums.first : nil
        let series = json?.firstSeries ?? location?.series.map { ($0, location?.name.seriesNumber) }
        var shelfId = self.shelfId
        if let author = location?.author {
            let prefix = try shelfId.flatMap { try ShelfStore.shelfPath(db, id: $0) }.map(ShelfStore.shelfNames) ?? []
            shelfId = try ShelfStore.createShelves(db, names: prefix + [author] + (location?.series.map { [$0] } ?? []))
        }
        return Book(
            id: nil, shelfId: shelfId, title: Self.nonBlank(json?.title) ?? album ?? fallback,
            author: Self.joined(json?.authors) ?? Self.nonBlank(first.albumArtist) ?? Self.nonBlank(first.artist) ?? location?.author,
            narrator: Self.joined(json?.narrators) ?? context.sidecars.narrator ?? Self.nonBlank(first.narrator) ?? location?.name.narrator,
            composer: Self.nonBlank(first.composer),
            sourcePath: context.ownsFolder ? context.folder : ordered.count == 1 ? ordered[0].file.path : context.folder ?? ordered[0].file.path,
            addedAt: Date(), finishedAt: nil,
            subtitle: Self.nonBlank(json?.subtitle), series: series?.name, seriesNumber: json?.firstSeries?.number ?? series?.number,
            year: json?.publishedYear ?? first.year ?? location?.name.year,
            bookDescription: Self.nonBlank(json?.description) ?? context.sidecars.description,
            coverPath: context.sidecars.coverPath)
    }

    /// Book-wide chapters (seconds from the book's start) put into the files they fall in, for
    /// the files without chapters of their own. Needs every file's length.
    static func addBookChapters(_ chapters: [AudiobookshelfMetadata.Chapter], to files: inout [Importer.Inspected]) {
        var start = 0.0
        for index in files.indices {
            let d = files[index].description
            guard let frames = d.durationFrames else { return }
            let seconds = Double(frames) / Double(d.sampleRate)
            let isLast = index == files.count - 1
            if d.chapters.isEmpty {
                files[index].description.chapters = chapters
                    .filter { $0.start >= start - 0.001 && ($0.start < start + seconds || isLast) }
                    .map { ChapterMark(startFrame: Int64((max(0, $0.start - start) * Double(d.sampleRate)).rounded()), title: $0.title) }
            }
            start += seconds
        }
    }

    static func nonBlank(_ text: String?) -> String? {
        guard let text, !text.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        return text
    }

    private static func joined(_ names: [String]?) -> String? {
        nonBlank(names?.compactMap(nonBlank).joined(separator: ", "))
    }
}
