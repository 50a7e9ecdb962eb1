import Library
import PlayerCore

/// The settings of the book loaded that the listener changes as it plays — speed, volume, the
/// play order (repeat, shuffle), skip silence, and going back to a default — each saved with the
/// book and given to its engine at once. The listener's defaults: `DefaultsControl`.
struct BookSettingsControl {
    let library: LibraryDatabase
    let session: PlayerSession

    /// What `command` asks of the book's settings; nil when it is not such a command.
    func perform(_ command: PlayerCommand) throws -> PlayerOutcome? {
        switch command {
        case let .speed(speed): try setSpeed(speed)
        case let .volume(percent): try setVolume(percent: percent)
        case let .stepSpeed(step): try stepSpeed(by: step)
        case let .stepVolume(step): try stepVolume(by: step)
        case let .repeatMode(mode): .repeatMode(try changeOrderSetting(\.repeatMode, to: mode, replanning: false).repeatMode)
        case let .shuffle(on): .shuffle(try changeOrderSetting(\.shuffle, to: on, replanning: true).shuffle)
        case let .skipSilence(setting): try skipSilence(setting)
        case let .skipIntro(seconds): try introOutro { settings in seconds.map { settings.skipIntroSeconds = $0 } }
        case let .skipOutro(seconds): try introOutro { settings in seconds.map { settings.skipOutroSeconds = $0 } }
        default: nil
        }
    }

    // MARK: Speed and volume

    private func setSpeed(_ speed: Double) throws -> PlayerOutcome {
        do {
            try SettingText.check(speed: speed)
        } catch {
            throw PlayerError(error.description)
        }
        return try changeSettings { $0.speed = speed }
    }

    private func setVolume(percent: Double) throws -> PlayerOutcome {
        do {
            try SettingText.check(volume: percent)
        } catch {
            throw PlayerError(error.description)
        }
        return try changeSettings { $0.volume = percent }
    }

    private func stepSpeed(by step: Double) throws -> PlayerOutcome {
        // On the hundredth, as speeds are written (1.25x): no 1.5000000001 from adding tenths,
        // and a quarter step stays a quarter.
        let stepped = ((session.settings.speed + step) * 100).rounded() / 100
        return try setSpeed(min(SettingText.speedRange.upperBound, max(SettingText.speedRange.lowerBound, stepped)))
    }

    private func stepVolume(by step: Double) throws -> PlayerOutcome {
        let stepped = session.settings.volume + step
        return try setVolume(percent: min(SettingText.volumeRange.upperBound, max(SettingText.volumeRange.lowerBound, stepped)))
    }

    private func changeSettings(_ change: (inout BookSettings) -> Void) throws -> PlayerOutcome {
        change(&session.settings)
        try library.settings.save(session.settings)
        session.engine.setSpeed(session.settings.speed)
        session.engine.setVolume(session.settings.volume)
        return .settings(speed: session.settings.speed, volumePercent: session.settings.volume, place: Place(session))
    }

    // MARK: Play order

    /// Sets (when given) a per-book setting that decides the item order, saves it and gives the
    /// engine the new order (a new shuffle plan when `replanning`); returns the settings.
    private func changeOrderSetting<Value>(_ setting: WritableKeyPath<BookSettings, Value>, to value: Value?,
                                           replanning: Bool) throws -> BookSettings {
        if let value {
            session.settings[keyPath: setting] = value
            try library.settings.save(session.settings)
            Self.applyOrder(session, replanning: replanning)
        }
        return session.settings
    }

    /// Tells the engine which item follows the one that ends. `replanning`: shuffle draws a new
    /// order for the pass, starting from the item playing (the one shuffle of the player).
    static func applyOrder(_ session: PlayerSession, replanning: Bool) {
        let count = session.timeline.items.count
        if session.settings.shuffle && count > 1 {
            if replanning || session.shufflePlan == nil {
                let here = session.position.item
                session.shufflePlan = [here] + (0..<count).filter { $0 != here }.shuffled()
            }
        } else {
            session.shufflePlan = nil
        }
        session.recorder.lastItemInOrder = session.shufflePlan?.last ?? count - 1
        session.engine.setOrder(session.order)
    }

    // MARK: Skip silence

    /// `silence skip on|off|MS`: sets the book's own setting (nil: shows it), answering with it
    /// and the time saved.
    private func skipSilence(_ setting: SkipSilence?) throws -> PlayerOutcome {
        if let setting {
            session.settings.skipSilence = setting
            try library.settings.save(session.settings)
            Self.applySkipSilence(session)
        }
        return try skipSilenceOutcome()
    }

    private func skipSilenceOutcome() throws -> PlayerOutcome {
        .skipSilence(session.settings.skipSilence, ownSetting: session.settings.ownSkipSilence != nil,
                     savedSeconds: try library.history.skippedSeconds(.silence, ofBook: session.book.id!))
    }

    static func applySkipSilence(_ session: PlayerSession) {
        session.engine.setSilenceSkipping(SkipSilenceText.engineValue(session.settings.skipSilence))
    }

    // MARK: Intro and outro

    /// `intro 30s`, `outro off`: sets the book's own (when `change` does), answering with both
    /// and the time they left out of the book so far.
    private func introOutro(_ change: (inout BookSettings) -> Void) throws -> PlayerOutcome {
        let before = session.settings
        change(&session.settings)
        if session.settings != before {
            for seconds in [session.settings.skipIntroSeconds, session.settings.skipOutroSeconds] where !IntroOutroText.range.contains(seconds) {
                session.settings = before
                throw PlayerError("'\(SettingText.number(seconds))' is out of range: \(IntroOutroText.forms)")
            }
            try library.settings.save(session.settings)
            Self.applyItemTrim(session)
        }
        return try introOutroOutcome()
    }

    private func introOutroOutcome() throws -> PlayerOutcome {
        .introOutro(IntroOutro(session.settings, skippedSeconds: try library.history.skippedSeconds(.introOutro, ofBook: session.book.id!)))
    }

    static func applyItemTrim(_ session: PlayerSession) {
        session.engine.setItemTrim(session.settings.itemTrim)
    }

    // MARK: Defaults

    /// The book drops its own speed, skip interval or skip silence and follows the listener's
    /// default (`speed default`). Loudness is `BookLoudness`'s.
    func useDefault(_ setting: ListenerSetting) throws -> PlayerOutcome {
        switch setting {
        case .speed: session.settings.ownSpeed = nil
        case .skip: session.settings.ownSkipIntervalSeconds = nil
        case .silence: session.settings.ownSkipSilence = nil
        case .intro: session.settings.ownSkipIntroSeconds = nil
        case .outro: session.settings.ownSkipOutroSeconds = nil
        case .rewind, .sleep, .loudness, .loudnessTarget, .plain:
            throw PlayerError("\(setting.rawValue) is not set per book: 'set \(setting.rawValue) VALUE' sets it for every book")
        }
        session.settings.defaults = BookSettings.Defaults(try library.settings.playerPreferences())
        try library.settings.save(session.settings)
        session.engine.setSpeed(session.settings.speed)
        Self.applySkipSilence(session)
        Self.applyItemTrim(session)
        if setting == .silence { return try skipSilenceOutcome() }
        if setting == .intro || setting == .outro { return try introOutroOutcome() }
        return .settings(speed: session.settings.speed, volumePercent: session.settings.volume, place: Place(session))
    }
}
