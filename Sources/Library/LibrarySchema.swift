import GRDB

/// The library's migrations, append-only: a shipped migration is never edited, only followed by
/// a new one. Each is plain static SQL so the schema of every version can be read here as it was
/// shipped (and rebuilt in tests by migrating only up to it).
enum LibrarySchema {
    /// The identifiers in order; the first one is the schema a first release would have created.
    static let firstVersion = "v1-shelves-books-media"
    /// Book settings in the units people use: volume in percent, the sleep timer in seconds.
    static let unitsVersion = "v4-settings-percent-seconds"
    /// `PRAGMA application_id` set to `LibraryDatabase.applicationId`.
    static let applicationIdVersion = "v5-application-id"
    /// What listeners' libraries say about a book beyond its tags: series and its number, year,
    /// subtitle, description and a cover file beside the audio (Audiobookshelf's folders and sidecars).
    static let bookDetailsVersion = "v6-book-series-details"
    /// Defaults a listener sets once (speed, skip, sleep) for books with no setting of their own,
    /// and the automatic bookmark left before a jump to a bookmark.
    static let listenerDefaultsVersion = "v7-listener-defaults-bookmark-jumps"
    /// Chapters the listener made or fixed, the book's own (`UserChapter`): the files are never written.
    static let userChaptersVersion = "v10-user-chapters"
    /// Each book's measured loudness (EBU R128), whether a book is evened out, and the listener's
    /// default for that and its target.
    static let bookLoudnessVersion = "v8-book-loudness"

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration(firstVersion) { db in try db.execute(sql: v1) }
        migrator.registerMigration("v2-bookmarks-history-finished") { db in try db.execute(sql: v2) }
        migrator.registerMigration("v3-queue-repeat-rewind") { db in try db.execute(sql: v3) }
        // GRDB runs a migration with foreign keys off and checks them all (foreign_key_check)
        // before it commits (`foreignKeyChecks: .deferred`, the default): what SQLite's
        // "other kinds of table schema changes" procedure asks for v4's table rebuild.
        migrator.registerMigration(unitsVersion) { db in try db.execute(sql: v4) }
        // Marks the file as ours, so that a foreign SQLite file named by --library is told apart
        // from a library (LibraryDatabase+Identity); the header field is written in the
        // migration's transaction. 1633841260 is 0x6162706C, "abpl".
        migrator.registerMigration(applicationIdVersion) { db in try db.execute(sql: "PRAGMA application_id = 1633841260") }
        migrator.registerMigration(bookDetailsVersion) { db in try db.execute(sql: v6) }
        // Two table rebuilds, as v4 did (foreign keys checked before the commit).
        migrator.registerMigration(listenerDefaultsVersion) { db in try db.execute(sql: v7) }
        migrator.registerMigration(bookLoudnessVersion) { db in try db.execute(sql: v8) }
        migrator.registerMigration(skipSilenceVersion) { db in try db.execute(sql: v9) }
        migrator.registerMigration(userChaptersVersion) { db in try db.execute(sql: UserChapter.v10) }
        // A table rebuild, as v7's (foreign keys checked before the commit).
        migrator.registerMigration(syncVersion) { db in try db.execute(sql: v11) }
        migrator.registerMigration(syncSettingsVersion) { db in try db.execute(sql: v12) }
        migrator.registerMigration(syncJournalMarkVersion) { db in try db.execute(sql: v13) }
        migrator.registerMigration(introOutroVersion) { db in try db.execute(sql: v14) }
        migrator.registerMigration(plainModeVersion) { db in try db.execute(sql: v15) }
        return migrator
    }

    static let v1 = """
        CREATE TABLE shelf (
            id INTEGER PRIMARY KEY,
            parentId INTEGER REFERENCES shelf(id) ON DELETE CASCADE,
            name TEXT NOT NULL CHECK (length(trim(name)) > 0 AND instr(name, '/') = 0),
            createdAt DATETIME NOT NULL
        );
        -- NULLs are distinct in a UNIQUE constraint, so top-level shelves are keyed with 0.
        CREATE UNIQUE INDEX shelf_sibling_name ON shelf(ifnull(parentId, 0), name);

        CREATE TABLE book (
            id INTEGER PRIMARY KEY,
            shelfId INTEGER REFERENCES shelf(id) ON DELETE CASCADE,
            title TEXT NOT NULL CHECK (length(title) > 0),
            author TEXT,
            narrator TEXT,
            composer TEXT,
            sourcePath TEXT,
            addedAt DATETIME NOT NULL
        );
        CREATE INDEX book_shelf ON book(shelfId);

        CREATE TABLE media (
            id INTEGER PRIMARY KEY,
            path TEXT NOT NULL UNIQUE,
            size INTEGER NOT NULL CHECK (size >= 0),
            fingerprint TEXT NOT NULL,
            isMissing BOOLEAN NOT NULL DEFAULT 0,
            title TEXT, artist TEXT, album TEXT, albumArtist TEXT, composer TEXT, narrator TEXT,
            genre TEXT, year INTEGER,
            trackNumber INTEGER, trackCount INTEGER, discNumber INTEGER, discCount INTEGER,
            sampleRate INTEGER NOT NULL CHECK (sampleRate > 0),
            durationFrames INTEGER CHECK (durationFrames >= 0),
            chapters TEXT NOT NULL DEFAULT '[]',
            hasCover BOOLEAN NOT NULL DEFAULT 0
        );
        CREATE INDEX media_fingerprint ON media(fingerprint);

        CREATE TABLE bookItem (
            id INTEGER PRIMARY KEY,
            bookId INTEGER NOT NULL REFERENCES book(id) ON DELETE CASCADE,
            mediaId INTEGER NOT NULL REFERENCES media(id) ON DELETE RESTRICT,
            position INTEGER NOT NULL CHECK (position >= 0),
            UNIQUE (bookId, position),
            UNIQUE (bookId, mediaId)
        );
        CREATE INDEX bookItem_media ON bookItem(mediaId);

        -- One row per book: where the listener is. Keyed by media, not by item row or path, so a
        -- reorder or a moved file keeps it.
        CREATE TABLE position (
            bookId INTEGER PRIMARY KEY REFERENCES book(id) ON DELETE CASCADE,
            mediaId INTEGER NOT NULL REFERENCES media(id) ON DELETE CASCADE,
            frame INTEGER NOT NULL CHECK (frame >= 0),
            updatedAt DATETIME NOT NULL
        );

        CREATE TABLE bookSettings (
            bookId INTEGER PRIMARY KEY REFERENCES book(id) ON DELETE CASCADE,
            volume REAL NOT NULL DEFAULT 1 CHECK (volume BETWEEN 0 AND 4),
            speed REAL NOT NULL DEFAULT 1 CHECK (speed BETWEEN 0.25 AND 4),
            shuffle BOOLEAN NOT NULL DEFAULT 0,
            skipIntervalSeconds REAL NOT NULL DEFAULT 30 CHECK (skipIntervalSeconds > 0),
            sleepTimerMinutes REAL CHECK (sleepTimerMinutes > 0)
        );
        """

    static let v2 = """
        ALTER TABLE book ADD COLUMN finishedAt DATETIME;

        CREATE TABLE bookmark (
            id INTEGER PRIMARY KEY,
            bookId INTEGER NOT NULL REFERENCES book(id) ON DELETE CASCADE,
            mediaId INTEGER NOT NULL REFERENCES media(id) ON DELETE CASCADE,
            frame INTEGER NOT NULL CHECK (frame >= 0),
            kind TEXT NOT NULL CHECK (kind IN ('user', 'beforeSeek', 'beforeSkip', 'beforeChapterJump', 'beforeItemJump', 'sleepTimer')),
            note TEXT,
            createdAt DATETIME NOT NULL
        );
        CREATE INDEX bookmark_book ON bookmark(bookId, createdAt);

        -- A stretch of listening: where it started and ended, how long it took by the wall clock.
        CREATE TABLE listeningSession (
            id INTEGER PRIMARY KEY,
            bookId INTEGER NOT NULL REFERENCES book(id) ON DELETE CASCADE,
            fromMediaId INTEGER NOT NULL REFERENCES media(id) ON DELETE CASCADE,
            fromFrame INTEGER NOT NULL CHECK (fromFrame >= 0),
            toMediaId INTEGER NOT NULL REFERENCES media(id) ON DELETE CASCADE,
            toFrame INTEGER NOT NULL CHECK (toFrame >= 0),
            startedAt DATETIME NOT NULL,
            endedAt DATETIME NOT NULL,
            wallSeconds REAL NOT NULL CHECK (wallSeconds >= 0),
            speed REAL NOT NULL CHECK (speed > 0)
        );
        CREATE INDEX listeningSession_book ON listeningSession(bookId, endedAt);
        CREATE INDEX listeningSession_started ON listeningSession(startedAt);

        CREATE TABLE mediaPlay (
            mediaId INTEGER PRIMARY KEY REFERENCES media(id) ON DELETE CASCADE,
            playCount INTEGER NOT NULL CHECK (playCount >= 0),
            lastPlayedAt DATETIME NOT NULL
        );
        """

    static let v3 = """
        -- Books to play next, in order; a book is queued at most once.
        CREATE TABLE queueEntry (
            bookId INTEGER PRIMARY KEY REFERENCES book(id) ON DELETE CASCADE,
            position INTEGER NOT NULL CHECK (position >= 0)
        );
        CREATE INDEX queueEntry_position ON queueEntry(position);

        ALTER TABLE bookSettings ADD COLUMN repeatMode TEXT NOT NULL DEFAULT 'off'
            CHECK (repeatMode IN ('off', 'item', 'book'));

        -- The player's own preferences (not per book): one row.
        CREATE TABLE playerPreferences (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            autoRewind BOOLEAN NOT NULL DEFAULT 1,
            autoRewindMaxSeconds REAL NOT NULL DEFAULT 30 CHECK (autoRewindMaxSeconds > 0 AND autoRewindMaxSeconds <= 600)
        );
        """

    /// Volume from a gain factor (0-4) to percent (0-150), speed from 0.25-4 to the engine's 0.5-4,
    /// the sleep timer from minutes to seconds. SQLite cannot change a CHECK or rename a column's
    /// meaning in place, so the table is rebuilt (create, copy, drop, rename); no table refers to
    /// bookSettings, and its own reference to book is declared again as it was.
    /// Volumes above 150 % and speeds below 0.5 become 150 and 0.5: what the engine, clamping,
    /// played them at. Volumes are rounded to 0.01 %: 0.29 * 100 is 28.999999999999996 in binary.
    static let v4 = """
        CREATE TABLE bookSettings_v4 (
            bookId INTEGER PRIMARY KEY REFERENCES book(id) ON DELETE CASCADE,
            volume REAL NOT NULL DEFAULT 100 CHECK (volume BETWEEN 0 AND 150),
            speed REAL NOT NULL DEFAULT 1 CHECK (speed BETWEEN 0.5 AND 4),
            shuffle BOOLEAN NOT NULL DEFAULT 0,
            skipIntervalSeconds REAL NOT NULL DEFAULT 30 CHECK (skipIntervalSeconds > 0),
            sleepTimerSeconds REAL CHECK (sleepTimerSeconds > 0),
            repeatMode TEXT NOT NULL DEFAULT 'off' CHECK (repeatMode IN ('off', 'item', 'book'))
        );
        INSERT INTO bookSettings_v4 (bookId, volume, speed, shuffle, skipIntervalSeconds, sleepTimerSeconds, repeatMode)
            SELECT bookId, min(150, round(volume * 100, 2)), max(0.5, speed), shuffle, skipIntervalSeconds,
                   sleepTimerMinutes * 60, repeatMode
            FROM bookSettings;
        DROP TABLE bookSettings;
        ALTER TABLE bookSettings_v4 RENAME TO bookSettings;
        """

    /// Plain added columns: every existing book simply has none of them.
    static let v6 = """
        ALTER TABLE book ADD COLUMN subtitle TEXT;
        ALTER TABLE book ADD COLUMN series TEXT;
        -- "Book 2.5" sorts between 2 and 3, so a number, not text.
        ALTER TABLE book ADD COLUMN seriesNumber REAL;
        ALTER TABLE book ADD COLUMN year INTEGER;
        ALTER TABLE book ADD COLUMN bookDescription TEXT;
        -- An image file beside the audio, used when no file of the book holds a picture.
        ALTER TABLE book ADD COLUMN coverPath TEXT;
        """

    /// A book's speed and skip interval become nullable: NULL is "no setting of its own", the
    /// listener's default applies (`playerPreferences.defaultSpeed`, `defaultSkipSeconds`, built in
    /// 1 and 30 s). Until now a book's row held 1 and 30 whether or not the listener chose them (a
    /// row is made by any setting, a volume or shuffle), so those values become NULL: they were the
    /// default then and follow the default now. A book's `sleepTimerSeconds` was the last `sleep` typed
    /// for it, never armed; it becomes the book's own sleep default (`book settings --sleep-timer`),
    /// armed when the book starts, so the old values are cleared: a timer typed once long ago must
    /// not start arming itself.
    /// `bookmark.kind` is a CHECKed TEXT: SQLite cannot change a CHECK in place, so the table is
    /// rebuilt with 'beforeBookmarkJump' added and its index made again; no table refers to it.
    /// Its ids become AUTOINCREMENT: `jump N` and `bookmark rm N` name bookmarks by id, so a
    /// removed bookmark's number must never come back as another one's.
    static let v7 = """
        CREATE TABLE bookSettings_v7 (
            bookId INTEGER PRIMARY KEY REFERENCES book(id) ON DELETE CASCADE,
            volume REAL NOT NULL DEFAULT 100 CHECK (volume BETWEEN 0 AND 150),
            speed REAL CHECK (speed BETWEEN 0.5 AND 4),
            shuffle BOOLEAN NOT NULL DEFAULT 0,
            skipIntervalSeconds REAL CHECK (skipIntervalSeconds > 0),
            sleepTimerSeconds REAL CHECK (sleepTimerSeconds > 0),
            repeatMode TEXT NOT NULL DEFAULT 'off' CHECK (repeatMode IN ('off', 'item', 'book'))
        );
        INSERT INTO bookSettings_v7 (bookId, volume, speed, shuffle, skipIntervalSeconds, sleepTimerSeconds, repeatMode)
            SELECT bookId, volume, nullif(speed, 1), shuffle, nullif(skipIntervalSeconds, 30), NULL, repeatMode
            FROM bookSettings;
        DROP TABLE bookSettings;
        ALTER TABLE bookSettings_v7 RENAME TO bookSettings;

        -- NULL: none set (speed 1, skip 30 s, no sleep timer).
        ALTER TABLE playerPreferences ADD COLUMN defaultSpeed REAL CHECK (defaultSpeed BETWEEN 0.5 AND 4);
        ALTER TABLE playerPreferences ADD COLUMN defaultSkipSeconds REAL CHECK (defaultSkipSeconds BETWEEN 1 AND 3600);
        ALTER TABLE playerPreferences ADD COLUMN defaultSleepSeconds REAL CHECK (defaultSleepSeconds BETWEEN 1 AND 86400);

        CREATE TABLE bookmark_v7 (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            bookId INTEGER NOT NULL REFERENCES book(id) ON DELETE CASCADE,
            mediaId INTEGER NOT NULL REFERENCES media(id) ON DELETE CASCADE,
            frame INTEGER NOT NULL CHECK (frame >= 0),
            kind TEXT NOT NULL CHECK (kind IN ('user', 'beforeSeek', 'beforeSkip', 'beforeChapterJump', 'beforeItemJump',
                                               'sleepTimer', 'beforeBookmarkJump')),
            note TEXT,
            createdAt DATETIME NOT NULL
        );
        INSERT INTO bookmark_v7 (id, bookId, mediaId, frame, kind, note, createdAt)
            SELECT id, bookId, mediaId, frame, kind, note, createdAt FROM bookmark;
        DROP TABLE bookmark;
        ALTER TABLE bookmark_v7 RENAME TO bookmark;
        CREATE INDEX bookmark_book ON bookmark(bookId, createdAt);
        """

    /// A book's loudness as measured once (`LoudnessMeter`), with what it was measured over (its
    /// items' media ids and fingerprints in order, `BookLoudness.key`): a rescan or an edit that
    /// changes the items makes it stale, and it is measured again. A table of its own, not
    /// columns of `book`: it is the player's cache, dropped with the book. Integrated loudness
    /// and peak are NULL for silence (no loudness, no gain). Plain added columns besides: NULL
    /// is "not set" (the listener's default; evened out at -18 LUFS by default).
    static let v8 = """
        CREATE TABLE bookLoudness (
            bookId INTEGER PRIMARY KEY REFERENCES book(id) ON DELETE CASCADE,
            integratedLUFS REAL CHECK (integratedLUFS BETWEEN -150 AND 30),
            peakDBTP REAL CHECK (peakDBTP BETWEEN -300 AND 50),
            isTruePeak BOOLEAN NOT NULL,
            measuredOver TEXT NOT NULL,
            measuredAt DATETIME NOT NULL
        );
        ALTER TABLE bookSettings ADD COLUMN loudness BOOLEAN;
        ALTER TABLE playerPreferences ADD COLUMN loudness BOOLEAN;
        ALTER TABLE playerPreferences ADD COLUMN loudnessTargetLUFS REAL CHECK (loudnessTargetLUFS BETWEEN -30 AND -10);
        """
}
