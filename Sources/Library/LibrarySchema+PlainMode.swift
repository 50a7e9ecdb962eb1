/// Plain mode as the listener's kept default (`set plain on`): a screen reader's listener sets it
/// once, and every REPL on this library then speaks in whole lines. A new nullable column only,
/// so the migration stands alone.
extension LibrarySchema {
    static let plainModeVersion = "v15-plain-mode"

    static let v15 = """
        -- 1: the REPL's terminal gets plain lines and announcements whatever TERM says; NULL or
        -- 0: only where the terminal asks for it (TERM=dumb) or --plain does.
        ALTER TABLE playerPreferences ADD COLUMN plainMode BOOLEAN;
        """
}
