import Foundation
import Library
import Listening
import PlayerCore

/// Evening out loudness: the book loaded gets its stored measure's gain at once, or is measured
/// on a thread of its own (never on the audio thread nor the controller's: a 10-hour book takes a
/// while) and gets the gain, with the engine's half-second ramp, when the measure arrives as a
/// `PlayerInput`.
extension PlayerController {
    /// A new or changed session's loudness: off, the stored measure's gain, or a measure started.
    func applyLoudness(_ session: PlayerSession) {
        // Unreadable preferences are no reason to refuse to play: the defaults then.
        let preferences = (try? library.playerPreferences()) ?? PlayerPreferences()
        let stored = try? library.loudness(ofBook: session.book.id!)
        // Skip silence's threshold lies under the book's own measured level, evened out or not
        // (without a measure it estimates the level from the audio heard).
        session.engine.setReferenceLoudness(stored?.integratedLUFS)
        guard Loudness.isOn(session.settings, preferences) else {
            session.loudness = .off
            session.engine.setLoudnessGain(decibels: 0)
            return
        }
        let target = preferences.loudnessTargetLUFS ?? Loudness.defaultTargetLUFS
        if let reading = stored {
            let gain = Loudness.gain(for: reading, target: target)
            session.loudness = .measured(reading, gain: gain)
            session.engine.setLoudnessGain(decibels: gain)
            return
        }
        if case .failed = session.loudness { return }
        session.engine.setLoudnessGain(decibels: 0)
        session.loudness = .measuring
        measureLoudness(ofBook: session.book.id!)
    }

    /// Measures a book in the background (once at a time per book); the result comes back
    /// through `wake` as `.loudnessMeasured`, stored in the library first.
    func measureLoudness(ofBook bookId: Int64) {
        guard !measuringLoudness.contains(bookId) else { return }
        let media: [Media]
        do {
            media = try library.items(ofBook: bookId)
        } catch {
            onNotice(.problem("loudness: \(error)"))
            return
        }
        measuringLoudness.insert(bookId)
        let meter = LoudnessMeter(decoders: decoders)
        let library = library
        let wake = wake
        // A thread of its own, not a task: the measure blocks for as long as the book takes to
        // decode (minutes for a long book), which would hold one of the cooperative pool's few
        // threads (two on a two-core machine) away from every other task for that long.
        let thread = Thread {
            // Background work beside the book it measures: the player's decoder must win the CPU
            // on a busy machine, or the first seconds heard stutter while the whole book decodes
            // here. Linux's nice is per thread (qualityOfService alone does not lower it).
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 15)
            let result = Result { () throws(LoudnessFailure) -> LoudnessReading in
                let reading = try meter.measure(paths: media.map(\.path))
                do {
                    try library.saveLoudness(reading, ofBook: bookId, measuredOver: media)
                } catch {
                    // Not kept (a read-only library): said, and measured again when next played.
                    throw LoudnessFailure("measured, but not stored in the library: \(error)")
                }
                return reading
            }
            wake(.loudnessMeasured(bookId: bookId, result))
        }
        thread.name = "abplayer loudness"
        thread.qualityOfService = .background
        thread.start()
    }

    /// A measure arrived: said, and applied when its book is loaded.
    func loudnessMeasured(bookId: Int64, _ result: Result<LoudnessReading, LoudnessFailure>) {
        measuringLoudness.remove(bookId)
        let title = session?.book.id == bookId ? session?.book.title : (try? library.book(matching: "#\(bookId)"))?.title
        switch result {
        case let .failure(failure):
            onNotice(.problem("loudness of \(title ?? "#\(bookId)") could not be measured: \(failure); it plays as recorded"))
            if let session, session.book.id == bookId, session.loudness != .off { session.loudness = .failed(failure.description) }
        case .success:
            if let session, session.book.id == bookId {
                if case .failed = session.loudness { session.loudness = .measuring }
                applyLoudness(session)
            }
            if let report = try? loudnessReport(ofBook: bookId) { onNotice(.loudnessMeasured(report)) }
        }
    }

    func loudness(_ command: LoudnessCommand) throws -> PlayerOutcome {
        switch command {
        case .show:
            return .loudness(try loudnessReport(ofBook: try playing().book.id!))
        case let .set(on):
            let session = try playing()
            session.settings.loudness = on
            try library.saveSettings(session.settings)
            applyLoudness(session)
            return .loudness(try loudnessReport(ofBook: session.book.id!))
        case let .measure(bookId):
            guard let id = bookId ?? session?.book.id else { throw PlayerError("nothing is playing: 'loudness measure BOOK' names one") }
            if let session, session.book.id == id, session.loudness != .off { session.loudness = .measuring }
            measureLoudness(ofBook: id)
            return .loudness(try loudnessReport(ofBook: id, measuring: true))
        }
    }

    /// What `loudness` says of a book: the loaded one's state, or another's stored measure.
    func loudnessReport(ofBook bookId: Int64, measuring: Bool = false) throws -> LoudnessReport {
        let preferences = try library.playerPreferences()
        let settings = try library.settings(ofBook: bookId)
        let target = preferences.loudnessTargetLUFS ?? Loudness.defaultTargetLUFS
        let title = try library.book(matching: "#\(bookId)").title
        let state: LoudnessState
        if !Loudness.isOn(settings, preferences) {
            state = .off
        } else if measuring || measuringLoudness.contains(bookId) {
            state = .measuring
        } else if let session, session.book.id == bookId {
            state = session.loudness
        } else if let reading = try library.loudness(ofBook: bookId) {
            state = .measured(reading, gain: Loudness.gain(for: reading, target: target))
        } else {
            state = .notMeasured
        }
        return LoudnessReport(book: title, state: state, source: settings.loudness == nil ? "default" : "book", targetLUFS: target)
    }
}
