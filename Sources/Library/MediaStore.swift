import Foundation
import GRDB

public struct RescanReport: Sendable {
    /// Files found at a new path (old path, new path).
    public var moved: [(from: String, to: String)] = []
    /// Files that were missing and are back at their path.
    public var returned: [String] = []
    /// Files still not found anywhere searched.
    public var missing: [String] = []
}

/// The media rows and the files they stand for: files moved or gone found again by content
/// (`rescan`), and what the library watch saw taken in (`+Watch`).
public struct MediaStore: Sendable {
    let writer: any DatabaseWriter
    /// The database's own files, never taken for media (`LibraryFiles`).
    let ownFiles: LibraryFiles?

    /// Checks every media file: a file gone from its path is looked for, by fingerprint, under
    /// `searchRoots` (default: the nearest existing folder above each missing file). Found files
    /// get their new path — keeping positions, bookmarks and history, which refer to the media,
    /// not the path; the others are marked missing (never deleted) and reported. `onlyMedia`:
    /// check just these (one book's files) instead of every file.
    public func rescan(searchRoots: [String] = [], onlyMedia: Set<Int64>? = nil) throws -> RescanReport {
        var report = RescanReport()
        let all = try writer.read { db in try Media.fetchAll(db) }
        var absent: [Media] = []
        for media in all where onlyMedia?.contains(media.id!) ?? true {
            let size = (try? FileManager.default.attributesOfItem(atPath: media.path)[.size] as? Int64) ?? nil
            if size == media.size, Fingerprint.of(path: media.path)?.fingerprint == media.fingerprint {
                if media.isMissing { report.returned.append(media.path) }
                try setMissing(media.id!, false)
            } else {
                absent.append(media)
            }
        }
        guard !absent.isEmpty else { return report }

        var roots = searchRoots.map(ImportPlan.absolute)
        if roots.isEmpty {
            for media in absent {
                var folder = (media.path as NSString).deletingLastPathComponent
                while !FileManager.default.fileExists(atPath: folder), folder != "/" {
                    folder = (folder as NSString).deletingLastPathComponent
                }
                if folder != "/", !roots.contains(folder) { roots.append(folder) }
            }
        }
        // Only files of a wanted size are fingerprinted: sizes rule out almost everything.
        var wanted = Dictionary(grouping: absent, by: \.size)
        let known = Set(all.map(\.path))
        for root in roots {
            guard let walker = FileManager.default.enumerator(atPath: root) else { continue }
            while let relative = walker.nextObject() as? String, !wanted.isEmpty {
                let path = root + "/" + relative
                guard !known.contains(path), ownFiles?.contains(path) != true,
                      let size = walker.fileAttributes?[.size] as? Int64, let candidates = wanted[size],
                      walker.fileAttributes?[.type] as? FileAttributeType == .typeRegular,
                      let (_, fingerprint) = Fingerprint.of(path: path),
                      let match = candidates.first(where: { $0.fingerprint == fingerprint }) else { continue }
                try writer.write { db in
                    try db.execute(sql: "UPDATE media SET path = ?, isMissing = 0 WHERE id = ?", arguments: [path, match.id!])
                }
                report.moved.append((match.path, path))
                wanted[size] = candidates.filter { $0.id != match.id }.nilIfEmpty
            }
        }
        for media in wanted.values.joined() {
            try setMissing(media.id!, true)
            report.missing.append(media.path)
        }
        report.missing.sort()
        return report
    }

    private func setMissing(_ id: Int64, _ missing: Bool) throws {
        try writer.write { db in
            try db.execute(sql: "UPDATE media SET isMissing = ? WHERE id = ? AND isMissing != ?", arguments: [missing, id, missing])
        }
    }
}

extension Array {
    fileprivate var nilIfEmpty: Self? { isEmpty ? nil : self }
}
