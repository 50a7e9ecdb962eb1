import Foundation
import GRDB

/// Files added to a book by name (`abplayer book add`, the REPL's and `play FILE...`), each
/// inspected as an import would be.
extension BookStore {
    /// `path` as `addFiles` names it (in `skipped`): absolute, with `.` and `..` resolved.
    public static func absolutePath(_ path: String) -> String { ImportPlan.absolute(path) }

    /// Imports `paths` (files) and appends them to a book, in the given order. Returns how many
    /// were added and the files skipped with their reasons.
    public func addFiles(_ paths: [String], toBook bookId: Int64, inspector: any MediaInspector)
        throws -> (added: Int, skipped: [SkippedFile])
    {
        var skipped: [SkippedFile] = []
        var mediaIds: [Int64] = []
        for path in paths.map(ImportPlan.absolute) {
            if ownFiles?.contains(path) == true {
                skipped.append(SkippedFile(path: path, reason: "the library's own database file, not audio"))
                continue
            }
            switch FileKind.of(path: path).kind {
            case .regular: break
            case .missing:
                skipped.append(SkippedFile(path: path, reason: "no such file"))
                continue
            default:
                skipped.append(SkippedFile(path: path, reason: "not a regular file"))
                continue
            }
            guard let (size, fingerprint) = Fingerprint.of(path: path) else {
                skipped.append(SkippedFile(path: path, reason: "cannot read the file"))
                continue
            }
            do {
                let description = try inspector.inspect(path: path)
                let inspected = Importer.Inspected(file: .init(path: path, folderDisc: nil), size: size,
                                                   fingerprint: fingerprint, description: description)
                mediaIds.append(try writer.write { db in try Importer.upsertMedia(db, inspected) })
            } catch {
                skipped.append(SkippedFile(path: path, reason: "\(error)"))
            }
        }
        let before = try items(ofBook: bookId).count
        try addItems(toBook: bookId, mediaIds: mediaIds)
        return (try items(ofBook: bookId).count - before, skipped)
    }
}
