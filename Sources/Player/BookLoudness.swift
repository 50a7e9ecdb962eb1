import Foundation
import Library
import Listening
import PlayerCore

/// Evening out loudness, for the player controller: the book loaded gets its stored measure's
/// gain at once, or is measured on a thread of its own (never on the audio thread nor the
/// controller's: a 10-hour book takes a while) and gets the gain, with the engine's half-second
/// ramp, when the measure arrives back through `wake`. Owns which books are being measured; the
/// controller passes the session it has loaded.
final class BookLoudness {
    private let library: LibraryDatabase
    private let decoders: any DecoderOpener
    private let wake: @Sendable (PlayerInput) -> Void
    /// The books whose loudness is being measured in the background.
    private(set) var measuring: Set<Int64> = []

    init(library: LibraryDatabase, decoders: any DecoderOpener, wake: @escaping @Sendable (PlayerInput) -> Void) {
        self.library = library
        self.decoders = decoders
        self.wake = wake
    }

    /// A new or changed session's loudness: off, the stored measure's gain, or a measure started.
    /// Returns a problem to say, when a measure could not start.
    @discardableResult
    func apply(to session: PlayerSession) -> PlayerNotice? {
        // Unreadable preferences are no reason to refuse to play: the defaults then.
        let preferences = (try? library.settings.playerPreferences()) ?? PlayerPreferences()
        let stored = try? library.settings.loudness(ofBook: session.book.id!)
        // Skip silence's threshold lies under the book's own measured level, evened out or not
        // (without a measure it estimates the level from the audio heard).
        session.engine.setReferenceLoudness(stored?.integratedLUFS)
        guard Loudness.isOn(session.settings, preferences) else {
            session.aids.loudness = .off
            session.engine.setLoudnessGain(decibels: 0)
            return nil
        }
        let target = preferences.loudnessTargetLUFS ?? Loudness.defaultTargetLUFS
        if let reading = stored {
            let gain = Loudness.gain(for: reading, target: target)
            session.aids.loudness = .measured(reading, gain: gain)
            session.engine.setLoudnessGain(decibels: gain)
            return nil
        }
        if case .failed = session.aids.loudness { return nil }
        session.engine.setLoudnessGain(decibels: 0)
        // A book with a file missing (said when it loaded) is not measured: the measure would
        // be of another book, and fail at the missing file.
        if (try? library.books.items(ofBook: session.book.id!))?.contains(where: \.isMissing) == true {
            session.aids.loudness = .failed("a file of the book is missing")
            return nil
        }
        session.aids.loudness = .measuring
        return measure(bookId: session.book.id!)
    }

    /// Measures a book in the background (once at a time per book); the result comes back
    /// through `wake` as `.loudnessMeasured`, stored in the library first. Returns a problem to
    /// say when the book's items cannot be read.
    @discardableResult
    func measure(bookId: Int64) -> PlayerNotice? {
        guard !measuring.contains(bookId) else { return nil }
        let media: [Media]
        do {
            media = try library.books.items(ofBook: bookId)
        } catch {
            return .problem("loudness: \(error)")
        }
        measuring.insert(bookId)
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
                    try library.settings.saveLoudness(reading, ofBook: bookId, measuredOver: media)
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
        return nil
    }

    /// A measure arrived: applied when its book is loaded (`session`); returns what to say.
    /// A failure to read a file is said once per run (`warnings`), not at every play.
    func measured(bookId: Int64, _ result: Result<LoudnessReading, LoudnessFailure>, session: PlayerSession?,
                  warnings: inout FileWarnings) -> [PlayerNotice] {
        measuring.remove(bookId)
        let loaded = session.flatMap { $0.book.id == bookId ? $0 : nil }
        let title = loaded?.book.title ?? (try? library.books.book(matching: "#\(bookId)"))?.title
        switch result {
        case let .failure(failure):
            if let loaded, loaded.aids.loudness != .off { loaded.aids.loudness = .failed(failure.description) }
            if let file = failure.file, !warnings.isFirst(about: file, topic: .loudness) { return [] }
            return [.problem("loudness of \(title ?? "#\(bookId)") could not be measured: \(failure); it plays as recorded")]
        case .success:
            var notices: [PlayerNotice] = []
            if let loaded {
                if case .failed = loaded.aids.loudness { loaded.aids.loudness = .measuring }
                notices += [apply(to: loaded)].compactMap { $0 }
            }
            if let report = try? report(ofBook: bookId, session: session) { notices.append(.loudnessMeasured(report)) }
            return notices
        }
    }

    /// `loudness [on | off | default | measure [BOOK]]` (`session`: the book loaded).
    func perform(_ command: LoudnessCommand, session: PlayerSession?) throws -> (PlayerOutcome, PlayerNotice?) {
        let nothingPlaying = PlayerError("nothing is playing: 'play BOOK' first")
        switch command {
        case .show:
            guard let session else { throw nothingPlaying }
            return (.loudness(try report(ofBook: session.book.id!, session: session)), nil)
        case let .set(on):
            guard let session else { throw nothingPlaying }
            session.settings.loudness = on
            try library.settings.save(session.settings)
            let problem = apply(to: session)
            return (.loudness(try report(ofBook: session.book.id!, session: session)), problem)
        case let .measure(bookId):
            guard let id = bookId ?? session?.book.id else { throw PlayerError("nothing is playing: 'loudness measure BOOK' names one") }
            if let session, session.book.id == id, session.aids.loudness != .off { session.aids.loudness = .measuring }
            let problem = measure(bookId: id)
            return (.loudness(try report(ofBook: id, session: session, measuring: true)), problem)
        }
    }

    /// What `loudness` says of a book: the loaded one's state, or another's stored measure.
    func report(ofBook bookId: Int64, session: PlayerSession?, measuring measuringNow: Bool = false) throws -> LoudnessReport {
        let preferences = try library.settings.playerPreferences()
        let settings = try library.settings.ofBook(bookId)
        let target = preferences.loudnessTargetLUFS ?? Loudness.defaultTargetLUFS
        let title = try library.books.book(matching: "#\(bookId)").title
        let state: LoudnessState
        if !Loudness.isOn(settings, preferences) {
            state = .off
        } else if measuringNow || measuring.contains(bookId) {
            state = .measuring
        } else if let session, session.book.id == bookId {
            state = session.aids.loudness
        } else if let reading = try library.settings.loudness(ofBook: bookId) {
            state = .measured(reading, gain: Loudness.gain(for: reading, target: target))
        } else {
            state = .notMeasured
        }
        return LoudnessReport(book: title, state: state, source: settings.loudness == nil ? "default" : "book", targetLUFS: target)
    }
}
