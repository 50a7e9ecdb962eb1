/// The ranges a book's settings and the listener's defaults must be in, wherever a value comes
/// from: typed at the REPL or on the command line (`SettingText`, in Player, which this module
/// cannot import), or read from another device's journal (`SyncJournalFormat.settings`). One
/// definition, so a value the CLI refuses is never taken from the sync folder either: a sleep
/// timer of 1e308 s from a journal once trapped every player converting it to an integer.
public enum SettingRanges {
    /// Half to four times, the pitch kept; `PlaybackEngine.speedRange` (PlayerCore, which this
    /// module cannot import either) holds the same.
    public static let speed = 0.5...4.0
    /// The book's skip interval in seconds: what `+`/`-` without an amount skip.
    public static let skipSeconds = 1.0...3600.0
    /// `sleep 30m`, `--sleep-timer 30m`: up to a day.
    public static let sleepSeconds = 1.0...86400.0
    /// `intro 30s`, `--skip-outro 45s`: what is left out at each end of every item, 0 (none) to
    /// 10 minutes (the library's CHECK).
    public static let introOutroSeconds = 0.0...600.0
}
