import Library
import PlayerCore

/// Skip silence for the book loaded (`silence skip on|off|MS|default`): stored with the book's
/// settings, applied to its engine at once; and what it saved, from the library.
extension PlayerController {
    /// Sets the book's own setting (nil: shows it), answering with it and the time saved.
    func skipSilence(_ setting: SkipSilence?) throws -> PlayerOutcome {
        let session = try playing()
        if let setting {
            session.settings.skipSilence = setting
            try library.saveSettings(session.settings)
            applySkipSilence(session)
        }
        return try skipSilenceOutcome(session)
    }

    func skipSilenceOutcome(_ session: PlayerSession) throws -> PlayerOutcome {
        .skipSilence(session.settings.skipSilence, ownSetting: session.settings.ownSkipSilence != nil,
                     savedSeconds: try library.silenceSkippedSeconds(ofBook: session.book.id!))
    }

    func applySkipSilence(_ session: PlayerSession) {
        session.engine.setSilenceSkipping(SkipSilenceText.engineValue(session.settings.skipSilence))
    }
}
