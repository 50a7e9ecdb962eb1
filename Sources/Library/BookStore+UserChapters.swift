import GRDB

/// A book's own chapters (`UserChapter`), which replace the chapters its files carry.
extension BookStore {
    /// A book's own chapters, in no particular order: the player lays them out by item and frame.
    public func userChapters(ofBook bookId: Int64) throws -> [UserChapter] {
        try writer.read { db in
            try UserChapter.filter(UserChapter.Columns.bookId == bookId)
                .order(UserChapter.Columns.mediaId, UserChapter.Columns.frame).fetchAll(db)
        }
    }

    /// Replaces a book's own chapters with `starts` in one transaction (empty: the book's
    /// embedded chapters are its chapters again).
    @discardableResult
    public func replaceUserChapters(ofBook bookId: Int64, with starts: [UserChapterStart]) throws -> [UserChapter] {
        try writer.write { db in
            try UserChapter.filter(UserChapter.Columns.bookId == bookId).deleteAll(db)
            return try starts.map { start in
                var chapter = UserChapter(bookId: bookId, mediaId: start.mediaId, frame: max(0, start.frame), title: start.title)
                try Self.insertChapter(&chapter, db)
                return chapter
            }
        }
    }

    @discardableResult
    public func addUserChapter(_ start: UserChapterStart, toBook bookId: Int64) throws -> UserChapter {
        try writer.write { db in
            var chapter = UserChapter(bookId: bookId, mediaId: start.mediaId, frame: max(0, start.frame), title: start.title)
            try Self.insertChapter(&chapter, db)
            return chapter
        }
    }

    public func renameUserChapter(id: Int64, title: String) throws {
        let renamed = try writer.write { db in
            try db.execute(sql: "UPDATE userChapter SET title = ? WHERE id = ?", arguments: [title, id])
            return db.changesCount > 0
        }
        if !renamed { throw LibraryError.notFound("no chapter #\(id)") }
    }

    public func deleteUserChapter(id: Int64) throws {
        let deleted = try writer.write { db in try UserChapter.deleteOne(db, key: id) }
        if !deleted { throw LibraryError.notFound("no chapter #\(id)") }
    }

    /// The constraints' refusals in the listener's words.
    private static func insertChapter(_ chapter: inout UserChapter, _ db: Database) throws {
        do {
            try chapter.insert(db)
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw LibraryError.invalid("there is already a chapter at that place")
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_CHECK {
            throw LibraryError.invalid("a chapter needs a title that is not empty")
        }
    }
}
