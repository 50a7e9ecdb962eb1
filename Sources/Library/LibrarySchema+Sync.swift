extension LibrarySchema {
    /// Sync through a shared folder (issue 17): this library's device, the folder, an id for each
    /// bookmark that is the same on every device, and the automatic bookmark a sync jump leaves.
    static let syncVersion = "v11-sync-device"

    /// `syncState` has one row, made when sync first needs it: the device id names this library's
    /// journal in the folder and must never change. `bookmark.syncId` is a UUID given to a
    /// bookmark the first time it is journaled (or taken from another device's journal), unique.
    /// `book.finishedChangedAt` and `bookmark.editedAt` date the changes a journal carries (NULL:
    /// never changed here since v11; a bookmark's edit time is then its creation), so a change
    /// passed on from another device keeps its own time and never beats a later one.
    /// `bookmark.kind` is a CHECKed TEXT: the table is rebuilt as v7 did, with 'beforeSyncJump'
    /// (where the listener was before another device's place was taken) added.
    static let v11 = """
        CREATE TABLE syncState (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            deviceId TEXT NOT NULL CHECK (length(deviceId) BETWEEN 1 AND 64),
            deviceName TEXT NOT NULL,
            folder TEXT
        );

        CREATE TABLE bookmark_v11 (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            bookId INTEGER NOT NULL REFERENCES book(id) ON DELETE CASCADE,
            mediaId INTEGER NOT NULL REFERENCES media(id) ON DELETE CASCADE,
            frame INTEGER NOT NULL CHECK (frame >= 0),
            kind TEXT NOT NULL CHECK (kind IN ('user', 'beforeSeek', 'beforeSkip', 'beforeChapterJump', 'beforeItemJump',
                                               'sleepTimer', 'beforeBookmarkJump', 'beforeSyncJump')),
            note TEXT,
            createdAt DATETIME NOT NULL,
            syncId TEXT,
            editedAt DATETIME
        );
        INSERT INTO bookmark_v11 (id, bookId, mediaId, frame, kind, note, createdAt)
            SELECT id, bookId, mediaId, frame, kind, note, createdAt FROM bookmark;
        -- The numbers handed out so far, removed bookmarks' too: none may come back (v7's promise).
        DELETE FROM sqlite_sequence WHERE name = 'bookmark_v11';
        INSERT INTO sqlite_sequence (name, seq) SELECT 'bookmark_v11', seq FROM sqlite_sequence WHERE name = 'bookmark';
        DROP TABLE bookmark;
        ALTER TABLE bookmark_v11 RENAME TO bookmark;
        CREATE INDEX bookmark_book ON bookmark(bookId, createdAt);
        CREATE UNIQUE INDEX bookmark_sync ON bookmark(syncId) WHERE syncId IS NOT NULL;
        ALTER TABLE book ADD COLUMN finishedChangedAt DATETIME;
        """

    /// What sync carries beyond places, bookmarks and finished marks (issue 17): when a book's
    /// settings and its user chapters last changed here (NULL: not since v12), so the newest change
    /// of either wins on every device; and whether a book loaded here jumps to another device's
    /// later place when it is started again (1), or only says where that is (0).
    static let syncSettingsVersion = "v12-sync-settings-chapters"

    static let v12 = """
        ALTER TABLE book ADD COLUMN settingsChangedAt DATETIME;
        ALTER TABLE book ADD COLUMN chaptersChangedAt DATETIME;
        ALTER TABLE syncState ADD COLUMN jumpOnStart BOOLEAN NOT NULL DEFAULT 1;
        """
}
