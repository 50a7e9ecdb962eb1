public import Library
import PlayerCore

/// The listener's defaults (`set speed 1.3`, `set skip 30`, `set rewind 20`, `set sleep 30m`):
/// stored in the library's preferences, they apply to every book with no setting of its own
/// (`SettingsStore.ofBook(_:)` falls back to them); `speed default` makes the book
/// loaded follow the default again.
public struct ListenerDefaults: Sendable, Equatable {
    /// nil: none set (1x).
    public var speed: Double?
    /// nil: none set (30 s).
    public var skipSeconds: Double?
    /// Auto-rewind's most; nil: auto-rewind off.
    public var rewindMaxSeconds: Double?
    /// Armed when a book starts; nil: none.
    public var sleepSeconds: Double?
    /// nil: none set (off).
    public var skipSilence: SkipSilence?
    /// Books evened out (nil: not set, on) toward the target (nil: not set, -18 LUFS).
    public var loudness: Bool?
    public var loudnessTargetLUFS: Double?
    /// Seconds left out at the start and the end of every item; nil: none set (none).
    public var introSeconds: Double?
    public var outroSeconds: Double?
    /// Plain lines at every REPL terminal (nil: not set, off).
    public var plain: Bool?

    init(_ preferences: PlayerPreferences) {
        speed = preferences.defaultSpeed
        skipSeconds = preferences.defaultSkipSeconds
        rewindMaxSeconds = preferences.autoRewind ? preferences.autoRewindMaxSeconds : nil
        sleepSeconds = preferences.defaultSleepSeconds
        skipSilence = preferences.defaultSkipSilence
        loudness = preferences.loudness
        loudnessTargetLUFS = preferences.loudnessTargetLUFS
        introSeconds = preferences.defaultSkipIntroSeconds
        outroSeconds = preferences.defaultSkipOutroSeconds
        plain = preferences.plainMode
    }

    /// What `set` shows, a line per setting, in the units they are typed in.
    public var lines: [String] { ListenerSetting.allCases.map(line) }

    /// "speed   1.3x", "skip    30 s (not set)"...
    public func line(_ setting: ListenerSetting) -> String {
        switch setting {
        case .speed: "speed   " + (speed.map(SettingText.speedText) ?? "1x (not set)")
        case .skip: "skip    " + (skipSeconds.map(SettingText.secondsText) ?? "30 s (not set)")
        case .rewind: "rewind  " + (rewindMaxSeconds.map { "auto, at most \(SettingText.secondsText($0))" } ?? "off")
        case .sleep: "sleep   " + (sleepSeconds.map { "\(Timecode.compact(seconds: $0)) from the start of every book" } ?? "off")
        case .silence: "silence " + (skipSilence.map { "skip " + SkipSilenceText.text($0) } ?? "skip off (not set)")
        case .loudness: "loudness " + (loudness.map { $0 ? "on" : "off" } ?? "on (not set)")
        case .loudnessTarget: "loudness-target " + (loudnessTargetLUFS.map { "\(SettingText.number($0)) LUFS" } ?? "-18 LUFS (not set)")
        case .intro: "intro   " + (introSeconds.map { "\(IntroOutroText.text($0)) left out of every item" } ?? "off (not set)")
        case .outro: "outro   " + (outroSeconds.map { "\(IntroOutroText.text($0)) left out of every item" } ?? "off (not set)")
        case .plain: "plain   " + (plain.map { $0 ? "on" : "off" } ?? "off (not set: on only where TERM=dumb or with --plain)")
        }
    }
}

/// `set …` and `rewind …`: the listener's defaults, saved in the library's preferences, and
/// followed at once by the book loaded where it has no setting of its own.
struct DefaultsControl {
    let library: LibraryDatabase
    /// The book loaded, if any.
    let session: PlayerSession?
    let loudness: BookLoudness

    /// Shows the defaults, or sets one; a problem applying loudness to the book loaded is said
    /// beside the outcome.
    func perform(_ command: DefaultsCommand) throws -> (PlayerOutcome, PlayerNotice?) {
        var preferences = try library.settings.playerPreferences()
        guard case let .set(setting, value) = command else { return (.defaults(ListenerDefaults(preferences), changed: nil), nil) }
        do throws(RefusedValue) {
            switch (setting, value) {
            case let (.speed, speed?): try SettingText.check(speed: speed)
            case let (.skip, seconds?) where !SettingText.skipRange.contains(seconds):
                throw RefusedValue("'\(Timecode.compact(seconds: seconds))' is out of range: use a time \(Timecode.describe(SettingText.skipRange))")
            case let (.sleep, seconds?) where !SettingText.sleepRange.contains(seconds):
                throw RefusedValue("'\(Timecode.compact(seconds: seconds))' is out of range: use a time \(Timecode.describe(SettingText.sleepRange))")
            case let (.silence, seconds?) where seconds != 0 && !SkipSilence.minimumMsRange.contains(Int(saturating: (seconds * 1000).rounded())):
                throw RefusedValue("'\(Int(saturating: (seconds * 1000).rounded())) ms' is out of range: \(SkipSilenceText.forms)")
            case let (.intro, seconds?) where !IntroOutroText.range.contains(seconds),
                 let (.outro, seconds?) where !IntroOutroText.range.contains(seconds):
                throw RefusedValue("'\(Timecode.compact(seconds: seconds))' is out of range: \(IntroOutroText.forms)")
            case let (.rewind, seconds?) where seconds != 0 && !SettingText.rewindRange.contains(seconds):
                throw RefusedValue("'\(Timecode.compact(seconds: seconds))' is out of range: use a time \(Timecode.describe(SettingText.rewindRange)) or off")
            default: break
            }
        } catch {
            throw PlayerError(error.description)
        }
        switch setting {
        case .speed: preferences.defaultSpeed = value
        case .skip: preferences.defaultSkipSeconds = value
        case .sleep: preferences.defaultSleepSeconds = value
        case .silence: preferences.defaultSkipSilence = value.map { $0 == 0 ? .off : .on(minimumMs: Int(saturating: ($0 * 1000).rounded())) }
        case .rewind:
            preferences.autoRewind = value != 0
            preferences.autoRewindMaxSeconds = value.flatMap { $0 == 0 ? nil : $0 } ?? AutoRewind.defaultMaxSeconds
        case .loudness: preferences.loudness = value.map { $0 != 0 }
        case .intro: preferences.defaultSkipIntroSeconds = value
        case .outro: preferences.defaultSkipOutroSeconds = value
        case .plain: preferences.plainMode = value.map { $0 != 0 }
        case .loudnessTarget:
            if let value, !Loudness.targetRange.contains(value) {
                throw PlayerError("'\(SettingText.number(value))' is out of range: use LUFS from -30 to -10 (-18 is the default)")
            }
            preferences.loudnessTargetLUFS = value
        }
        try library.settings.savePlayerPreferences(preferences)
        // The book loaded follows a new default at once where it has no setting of its own; a
        // sleep default waits for the next book to start.
        var problem: PlayerNotice?
        if let session {
            session.settings.defaults = BookSettings.Defaults(preferences)
            session.engine.setSpeed(session.settings.speed)
            BookSettingsControl.applySkipSilence(session)
            BookSettingsControl.applyItemTrim(session)
            session.aids.rewind.maxSeconds = preferences.autoRewind ? preferences.autoRewindMaxSeconds : nil
            if setting == .loudness || setting == .loudnessTarget { problem = loudness.apply(to: session) }
        }
        return (.defaults(ListenerDefaults(preferences), changed: setting), problem)
    }

    /// `rewind auto|off|MAX`: auto-rewind for every book, the book loaded at once.
    func setRewind(_ setting: RewindSetting?) throws -> PlayerOutcome {
        var preferences = try library.settings.playerPreferences()
        switch setting {
        case nil: break
        case .auto:
            preferences.autoRewind = true
            preferences.autoRewindMaxSeconds = AutoRewind.defaultMaxSeconds
        case .off: preferences.autoRewind = false
        case let .max(seconds):
            preferences.autoRewind = true
            preferences.autoRewindMaxSeconds = seconds
        }
        if setting != nil { try library.settings.savePlayerPreferences(preferences) }
        let maxSeconds = preferences.autoRewind ? preferences.autoRewindMaxSeconds : nil
        session?.aids.rewind.maxSeconds = maxSeconds
        return .rewind(maxSeconds: maxSeconds)
    }
}
