/// Skip silence: a book's setting, the listener's default, and the time each listening session
/// saved. Only new nullable (or defaulted) columns, so the migration stands alone.
extension LibrarySchema {
    static let skipSilenceVersion = "v9-skip-silence"

    static let v9 = """
        -- The shortest silence shortened, in milliseconds; 0: off. NULL: the book follows the
        -- listener's default (bookSettings), or none is set: off (playerPreferences).
        ALTER TABLE bookSettings ADD COLUMN skipSilenceMs INTEGER
            CHECK (skipSilenceMs = 0 OR skipSilenceMs BETWEEN 300 AND 60000);
        ALTER TABLE playerPreferences ADD COLUMN defaultSkipSilenceMs INTEGER
            CHECK (defaultSkipSilenceMs = 0 OR defaultSkipSilenceMs BETWEEN 300 AND 60000);
        -- Source seconds cut out of silences while the session played.
        ALTER TABLE listeningSession ADD COLUMN silenceSkippedSeconds REAL NOT NULL DEFAULT 0
            CHECK (silenceSkippedSeconds >= 0);
        """
}
