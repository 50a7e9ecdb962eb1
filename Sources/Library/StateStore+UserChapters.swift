import GRDB

/// The listener's own chapters in a state file: by item fingerprint and frame, like bookmarks.
extension StateStore {
    static func exported(_ chapters: [UserChapter]?, fingerprints: [Int64: String]) -> [StateExport.ExportedUserChapter]? {
        let exported = (chapters ?? []).compactMap { chapter in
            fingerprints[chapter.mediaId].map { StateExport.ExportedUserChapter(item: $0, frame: chapter.frame, title: chapter.title) }
        }
        return exported.isEmpty ? nil : exported
    }

    /// A book's chapters in the file replace the library's own (the file is the newer word); a
    /// file that has none for it leaves them, as a file from before user chapters must.
    static func importUserChapters(_ exported: StateExport.ExportedBook, bookId: Int64,
                                   byFingerprint: [String: Int64], _ db: Database) throws {
        guard let chapters = exported.userChapters, !chapters.isEmpty else { return }
        try UserChapter.filter(UserChapter.Columns.bookId == bookId).deleteAll(db)
        for chapter in chapters {
            guard let mediaId = byFingerprint[chapter.item] else { continue }
            var record = UserChapter(bookId: bookId, mediaId: mediaId, frame: max(0, chapter.frame), title: chapter.title)
            do {
                try record.insert(db)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                throw LibraryError.invalid("\(exported.title): chapter '\(chapter.title)' at frame \(chapter.frame) is a second "
                    + "chapter at one place or has an empty title; nothing was imported")
            }
        }
    }
}
