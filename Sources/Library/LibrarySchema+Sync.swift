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

    ///
    /// The two times are stamped by triggers, so no writer of settings or chapters (the player, the
    /// `book` command, a state import, a rescan dropping a file) can forget to: `strftime(..., '%f')`
    /// is StoredDate's text form. Only the settings that travel stamp `settingsChangedAt` (not the
    /// volume: each machine's speakers differ), and only when one really changed: GRDB's `save`
    /// writes every column, so `UPDATE OF` alone would fire on a volume change too. A row made with
    /// none of them set is no setting at all. A sync exchange taking another device's change writes
    /// the rows, then sets the time to that device's, over the trigger's. A later migration that
    /// rebuilds bookSettings or userChapter drops these triggers with the table: it must make them again.
    static let v12 = """
        ALTER TABLE book ADD COLUMN settingsChangedAt DATETIME;
        ALTER TABLE book ADD COLUMN chaptersChangedAt DATETIME;
        ALTER TABLE syncState ADD COLUMN jumpOnStart BOOLEAN NOT NULL DEFAULT 1;

        CREATE TRIGGER bookSettings_travelling_inserted AFTER INSERT ON bookSettings
        WHEN NEW.speed IS NOT NULL OR NEW.shuffle != 0 OR NEW.skipIntervalSeconds IS NOT NULL
            OR NEW.sleepTimerSeconds IS NOT NULL OR NEW.repeatMode != 'off' OR NEW.skipSilenceMs IS NOT NULL
            OR NEW.loudness IS NOT NULL
        BEGIN
            UPDATE book SET settingsChangedAt = strftime('%Y-%m-%d %H:%M:%f', 'now') WHERE id = NEW.bookId;
        END;
        CREATE TRIGGER bookSettings_travelling_updated
        AFTER UPDATE OF speed, shuffle, skipIntervalSeconds, sleepTimerSeconds, repeatMode, skipSilenceMs, loudness ON bookSettings
        WHEN NEW.speed IS NOT OLD.speed OR NEW.shuffle IS NOT OLD.shuffle OR NEW.skipIntervalSeconds IS NOT OLD.skipIntervalSeconds
            OR NEW.sleepTimerSeconds IS NOT OLD.sleepTimerSeconds OR NEW.repeatMode IS NOT OLD.repeatMode
            OR NEW.skipSilenceMs IS NOT OLD.skipSilenceMs OR NEW.loudness IS NOT OLD.loudness
        BEGIN
            UPDATE book SET settingsChangedAt = strftime('%Y-%m-%d %H:%M:%f', 'now') WHERE id = NEW.bookId;
        END;

        CREATE TRIGGER userChapter_inserted AFTER INSERT ON userChapter
        BEGIN
            UPDATE book SET chaptersChangedAt = strftime('%Y-%m-%d %H:%M:%f', 'now') WHERE id = NEW.bookId;
        END;
        CREATE TRIGGER userChapter_updated AFTER UPDATE ON userChapter
        BEGIN
            UPDATE book SET chaptersChangedAt = strftime('%Y-%m-%d %H:%M:%f', 'now') WHERE id IN (OLD.bookId, NEW.bookId);
        END;
        CREATE TRIGGER userChapter_deleted AFTER DELETE ON userChapter
        BEGIN
            UPDATE book SET chaptersChangedAt = strftime('%Y-%m-%d %H:%M:%f', 'now') WHERE id = OLD.bookId;
        END;
        """

    /// How this library left its own journal (`SyncJournalMark`'s text; NULL: not known yet, as
    /// after a new folder), so a journal another copy of the library wrote is noticed.
    static let syncJournalMarkVersion = "v13-sync-journal-mark"
    static let v13 = "ALTER TABLE syncState ADD COLUMN journalMark TEXT;"
}
