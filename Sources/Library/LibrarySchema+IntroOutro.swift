/// Intro and outro skipping: a book's setting, the listener's default, and the time each
/// listening session left out. Only new nullable (or defaulted) columns, as v9's; the book's two
/// travel with its other settings (`SyncBookSettings`), so they stamp `settingsChangedAt` as
/// v12's triggers do for the others.
extension LibrarySchema {
    static let introOutroVersion = "v14-skip-intro-outro"

    static let v14 = """
        -- Seconds left out at the start (intro) and the end (outro) of every item of the book;
        -- 0: none. NULL: the book follows the listener's default (bookSettings), or none is set:
        -- none (playerPreferences).
        ALTER TABLE bookSettings ADD COLUMN skipIntroSeconds REAL
            CHECK (skipIntroSeconds BETWEEN 0 AND 600);
        ALTER TABLE bookSettings ADD COLUMN skipOutroSeconds REAL
            CHECK (skipOutroSeconds BETWEEN 0 AND 600);
        ALTER TABLE playerPreferences ADD COLUMN defaultSkipIntroSeconds REAL
            CHECK (defaultSkipIntroSeconds BETWEEN 0 AND 600);
        ALTER TABLE playerPreferences ADD COLUMN defaultSkipOutroSeconds REAL
            CHECK (defaultSkipOutroSeconds BETWEEN 0 AND 600);
        -- Source seconds of intros and outros left out while the session played.
        ALTER TABLE listeningSession ADD COLUMN introOutroSkippedSeconds REAL NOT NULL DEFAULT 0
            CHECK (introOutroSkippedSeconds >= 0);

        CREATE TRIGGER bookSettings_introOutro_inserted AFTER INSERT ON bookSettings
        WHEN NEW.skipIntroSeconds IS NOT NULL OR NEW.skipOutroSeconds IS NOT NULL
        BEGIN
            UPDATE book SET settingsChangedAt = strftime('%Y-%m-%d %H:%M:%f', 'now') WHERE id = NEW.bookId;
        END;
        CREATE TRIGGER bookSettings_introOutro_updated AFTER UPDATE OF skipIntroSeconds, skipOutroSeconds ON bookSettings
        WHEN NEW.skipIntroSeconds IS NOT OLD.skipIntroSeconds OR NEW.skipOutroSeconds IS NOT OLD.skipOutroSeconds
        BEGIN
            UPDATE book SET settingsChangedAt = strftime('%Y-%m-%d %H:%M:%f', 'now') WHERE id = NEW.bookId;
        END;
        """
}
