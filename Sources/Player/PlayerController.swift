import Foundation
public import Library
import Listening
public import PlayerCore

/// What playing a book means, with no user interface: loading a book at its saved place,
/// navigation, chapters, the play order (repeat, one shuffle), the queue, the sleep timer,
/// auto-rewind, per-book settings, saving positions, automatic bookmarks and undo.
///
/// Front ends (the REPL and its screens, the control socket, MPRIS, `listen`) send typed
/// `PlayerCommand`s and show the typed `PlayerOutcome`s and `PlayerNotice`s in their own way;
/// observers on other threads read `broadcast`. Used from one task: its owner's.
public final class PlayerController {
    let library: LibraryDatabase
    let decoders: any DecoderOpener
    let outputs: Outputs
    /// The output chosen with `--output` or `output`; nil: chosen per book.
    var chosenOutput: String?
    var session: PlayerSession?
    /// Which engine is current: events of an earlier book's engine are dropped.
    private(set) var generation = 0
    let wake: @Sendable (PlayerInput) -> Void
    /// The state and events for observers on other threads (MPRIS, the control socket).
    public let broadcast = PlayerBroadcast()
    /// The session's jump count when the state was last published: more means it jumped.
    var publishedJumps = 0
    /// The chapter (index) the listener knows they are in: where a command or a load left them,
    /// or the last one announced. Playing into another says it (`PlayerNotice.chapterStarted`).
    var knownChapter: Int?
    let covers: CoverFiles
    /// Shows what the player says without being asked; set by the front end. (The controller
    /// says it through `tell`, which also tells the listening event a notice is.)
    public var onNotice: (PlayerNotice) -> Void = { _ in }
    /// Sync through a shared folder, when the library has one.
    let sync: PlayerSync
    /// Evening out the loudness of the book loaded; measures in the background.
    let loudness: BookLoudness
    /// How many times the library's books or shelves were edited (`libraryEdited`): a face
    /// showing the library reads it again when a request changed this.
    public internal(set) var libraryEdits = 0

    /// What the player's timers run on (the tests' clock in tests).
    let clock: any PlayerClock
    /// Files said to be missing or broken in this run: each is said once.
    var filesWarnedAbout = FileWarnings()
    /// What the states published so far make of the next one (`ListeningEvent`s).
    var listeningEvents = ListeningEventTracker()

    /// The sleep timer of the book loaded, acted on.
    var sleepControl: SleepControl { SleepControl(library: library, clock: clock, wake: wake) }

    public init(library: LibraryDatabase, decoders: any DecoderOpener, outputs: Outputs, output: String?,
                clock: any PlayerClock = MonotonicClock(), wake: @escaping @Sendable (PlayerInput) -> Void) {
        self.library = library
        self.clock = clock
        self.decoders = decoders
        self.outputs = outputs
        self.chosenOutput = output
        self.wake = wake
        self.covers = CoverFiles(library: library, decoders: decoders)
        sync = PlayerSync(library: library, wake: wake)
        loudness = BookLoudness(library: library, decoders: decoders, wake: wake)
    }

    /// Does what `command` asks, publishes the state, and says what it did.
    @discardableResult
    public func perform(_ command: PlayerCommand) throws(PlayerError) -> PlayerOutcome {
        defer {
            // Whatever the command did to the place, its answer said where that is.
            knownChapter = session.flatMap { $0.timeline.chapterIndex(at: $0.position) }
            publishState()
        }
        do {
            let placeBefore = session?.position
            defer { sync.after(command, placeBefore: placeBefore, session: session, say: tell) }
            let outcome = try run(command)
            tellEvent(of: outcome)
            return outcome
        } catch let error as PlayerError {
            throw error
        } catch {
            throw PlayerError("\(error)")
        }
    }

    private func run(_ command: PlayerCommand) throws -> PlayerOutcome {
        switch command {
        case let .play(bookId): return try play(bookId)
        case let .playUntil(bookId, end): return try load(try library.books.book(matching: "#\(bookId)"), end: end)
        case let .playItem(item):
            let session = try playing()
            guard session.timeline.items.indices.contains(item) else { throw Navigation.itemRangeError(session) }
            session.jump(to: PlaybackPosition(item: item, frame: 0), kind: .beforeItemJump)
            try resume(session)
            return .moved(Place(session))
        case .pause:
            let session = try playing()
            session.pause()
            return .paused(Place(session))
        case .toggle:
            let session = try playing()
            guard session.state == .playing else { return try resumed(session) }
            session.pause()
            return .paused(Place(session))
        case .skip, .seek, .goto, .nextItem, .previousItem, .chapter, .undo:
            return try Navigation(library: library, session: playing()).perform(command)!
        case let .chapters(bookId): return try ChapterList(library: library, session: session).list(ofBook: bookId)
        case let .editChapters(edit): return try ChapterEditor(library: library, session: session).edit(edit)
        case .bookmark, .bookmarks, .gotoBookmark, .removeBookmark, .noteBookmark:
            return try BookmarkCommands(library: library, session: session).perform(command)!
        case let .defaults(command):
            let (outcome, problem) = try DefaultsControl(library: library, session: session, loudness: loudness).perform(command)
            if let problem { tell(problem) }
            return outcome
        case .useDefault(.loudness):
            let (outcome, problem) = try loudness.perform(.set(nil), session: playing())
            if let problem { tell(problem) }
            return outcome
        case let .useDefault(setting): return try BookSettingsControl(library: library, session: playing()).useDefault(setting)
        case .speed, .volume, .stepSpeed, .stepVolume, .repeatMode, .shuffle, .skipSilence, .skipIntro, .skipOutro:
            return try BookSettingsControl(library: library, session: playing()).perform(command)!
        case let .output(name): return try switchOutput(to: name)
        case .status: return .status(try currentStatus())
        case let .sleep(sleep): return try sleepControl.perform(sleep, session: session)
        case let .queue(queue): return try QueueCommands(library: library, loadedBookId: session?.book.id).perform(queue)
        case let .rewind(setting):
            return try DefaultsControl(library: library, session: session, loudness: loudness).setRewind(setting)
        case let .sync(request): return try sync.perform(request, session: session, say: tell)
        case let .loudness(command):
            let (outcome, problem) = try loudness.perform(command, session: session)
            if let problem { tell(problem) }
            return outcome
        case let .stop(reason):
            guard let session else { return .done }
            let title = session.book.title
            close()
            return .stopped(book: title, reason: reason)
        }
        return .done
    }

    /// Takes an engine event or a timer's wake-up, then publishes the state.
    public func handle(_ input: PlayerInput) {
        switch input {
        case let .engine(sentEvent, generation):
            // Numbered as the session numbers the items now (a list replaced while the event
            // was on its way); the engine's acknowledgement of a new list ends here.
            guard generation == self.generation, let session, let event = session.numbering.current(sentEvent) else { return }
            session.follow(event)
            if let notice = notice(for: event, of: session) { tell(notice) }
            // Before the sleep timer's pause is said: the place it paused at may be a new chapter's start.
            if let notice = chapterNotice(after: event, of: session) { tell(notice) }
            sleepControl.handle(event, of: session).forEach(tell)
            if case .ended = event { bookEnded(session) }
            publishState(after: event)
        case let .sleepTimerDue(generation):
            sleepControl.due(generation: generation, session: session)
            publishState()
        case let .sleepTimerWarning(generation):
            if let notice = sleepControl.warn(generation: generation, session: session) { tell(notice) }
        case .syncFolderChanged:
            sync.exchangeInBackground(playing: session?.book.id)
        case let .syncExchanged(result):
            exchangedWithSyncFolder(result)
        case let .loudnessMeasured(bookId, result):
            loudness.measured(bookId: bookId, result, session: session, warnings: &filesWarnedAbout).forEach(tell)
            publishState()
        }
    }

    /// Saves the position and stops playback: at quit, at the end of a script, on a signal.
    public func close() {
        session?.close()
        session = nil
        // The place saved just now goes to the journal too: listening that ends with a quit, not
        // a pause, was written there only when the player next started, and another device took
        // the place from before it meanwhile. Nothing to tell if it cannot (the player is going,
        // and its next exchange says why).
        if sync.isOn { try? sync.writeJournalNow() }
    }

    /// The book loaded, for a front end's own views (the player screen, completion).
    public var loadedBook: LoadedBook? {
        session.map {
            LoadedBook(book: $0.book, itemTitles: $0.timeline.items.map(\.title), speed: $0.settings.speed,
                       volumePercent: $0.settings.volume)
        }
    }

    /// Whether the book loaded has been heard: its output opened and played. A front end that
    /// is stopped before anything played says so (`listen` exits non-zero).
    public var hasPlayed: Bool { session?.hasPlayed ?? false }

    /// The status now; nil when nothing is loaded.
    public var status: Status? { try? currentStatus() }

    /// Where the book loaded is, as exact numbers (item and frame); nil when nothing is loaded.
    public var position: PlaybackPosition? { session?.position }

    /// Other devices' places in a book, as the last exchange found (for `status` and `ls`).
    public func placesElsewhere(ofBook bookId: Int64) -> [SyncBookStatus.Place] {
        sync.elsewhere[bookId]
    }

    // MARK: Loading

    func playing() throws(PlayerError) -> PlayerSession {
        guard let session else { throw PlayerError("nothing is playing: 'play BOOK' first") }
        return session
    }

    private func play(_ bookId: Int64?) throws -> PlayerOutcome {
        if let bookId { return try load(try library.books.book(matching: "#\(bookId)")) }
        if let session { return try resumed(session) }
        return try load(try bookListenedToLast())
    }

    /// `resume`, saying where it plays from; nothing when it went on into the queue's next book
    /// (that start was said).
    private func resumed(_ session: PlayerSession) throws -> PlayerOutcome {
        try resume(session)
        guard let now = self.session, now === session else { return .done }
        return .resumed(Place(now))
    }

    /// Plays on, going back a little first after a long pause (auto-rewind). At the end of the
    /// book: the queue's next book if one waits, else this one from its start.
    func resume(_ session: PlayerSession) throws {
        if let cued = session.loaded.cued { return playCued(session, savedAt: cued.savedAt) }
        if sync.jumpToOfferOnStart(session, say: tell) {
            session.play()
            return
        }
        if session.hasEnded {
            if let next = try library.queue.dequeue() {
                tell(.queueNext(next))
                if case let .started(book, seconds, item, count, output) = try load(next) {
                    tell(.started(book: book, seconds: seconds, item: item, itemCount: count, output: output))
                }
                return
            }
            try library.positions.markUnfinished(bookId: session.book.id!)
            session.jump(to: PlaybackPosition(item: session.shufflePlan?.first ?? 0, frame: 0), kind: nil)
            tell(.playingAgain(book: session.book.title))
        } else if let back = session.rewindAfterPause() {
            tell(.rewound(seconds: back))
        }
        session.play()
    }

    /// The first play of a book cued at the start: what starting to play it does, from here
    /// (another device's later place, else the rewind for the time since it was last heard;
    /// its sleep default).
    private func playCued(_ session: PlayerSession, savedAt: Date?) {
        session.loaded.cued = nil
        if !sync.jumpToOfferOnStart(session, say: tell), let savedAt, let back = session.rewindBeforeStart(savedAt: savedAt, loaded: true) {
            tell(.rewound(seconds: back))
        }
        session.play()
        sleepControl.armDefault(session)
        // Said as a start is (with the output it goes to, and the sleep default it armed).
        tell(.started(book: session.book, seconds: session.timeline.bookSeconds(session.position), item: session.position.item,
                          itemCount: session.timeline.items.count, output: session.outputName))
    }

    /// With nothing loaded, `play` (or Play from a media key) carries on with the book in
    /// progress, else the one played last.
    private func bookListenedToLast() throws -> Book {
        guard let last = try library.catalog.books(on: .inProgress, limit: 1).first ?? library.catalog.books(on: .recentlyPlayed, limit: 1).first else {
            if try library.books.hasNoBooks {
                throw PlayerError("the library has no books yet: 'import FOLDER' adds the books in a folder, then 'play BOOK'")
            }
            throw PlayerError("nothing is playing and no book has been played yet: 'play BOOK'")
        }
        return last
    }

    /// At the player's start: the book listened to last, loaded and paused at its saved place, so
    /// that `status`, MPRIS and the player screen show it ready, as BookPlayer, Voice and cmus do.
    /// No sound until `play`; nothing is saved, counted or synced until the listener plays or
    /// moves it, so a start is not listening (another device's later place still wins). Nil
    /// when a book is loaded already, none was listened to, or it cannot load (a file missing:
    /// `play` says why then).
    public func cueBookListenedToLast() -> PlayerOutcome? {
        guard session == nil, let book = try? bookListenedToLast() else { return nil }
        defer { publishState() }
        return try? load(book, playing: false)
    }

    /// Loads `book` at its saved place and plays it (`playing`; else paused there, cued), to
    /// `end` when given, else to its end.
    func load(_ book: Book, end: PlaybackPosition? = nil, playing: Bool = true) throws -> PlayerOutcome {
        let media = try library.books.items(ofBook: book.id!)
        guard !media.isEmpty else { throw PlayerError("\(book.title) has no items: 'book add' some files") }
        // Another device's later listening is taken first (at the player's start, the first
        // exchange may still be reading the folder).
        sync.waitForFirstExchange()
        let start = try library.positions.startingPlace(ofBook: book.id!)
        if media[start.item].isMissing {
            // Not skipped: playing on from the next file would move the saved place past what
            // was never heard. A plain rescan searches only above the file's old place: a file
            // moved elsewhere is found by naming the folder it is in now.
            throw PlayerError("\(book.title): \(media[start.item].path) is missing; if it moved, 'rescan FOLDER' (in the REPL, or 'abplayer rescan FOLDER') with the folder it is in now finds it; the saved position is kept")
        }
        // A book plays what it has, as cmus and mpv play on past a file they cannot open: the
        // engine skips a missing file further on (said here once, not again when it is reached).
        for missing in media.filter(\.isMissing) where filesWarnedAbout.isFirst(about: missing.path) {
            tell(.fileMissing(book: book.title, path: missing.path))
        }
        let automatic = chosenOutput == nil ? outputs.automatic(AudioFormat(rate: media[start.item].sampleRate, channels: 2)) : nil
        let outputName = chosenOutput ?? automatic?.name ?? ""
        if let warning = automatic?.warning { tell(.noOutputAnswered(warning)) }
        let sinks = try openOutput(outputName)
        close()
        generation += 1
        let generation = generation
        let wake = wake
        let engine = PlaybackEngine(decoders: decoders, sinks: sinks) { wake(.engine($0, generation: generation)) }
        let startPosition = PlaybackPosition(item: start.item, frame: start.frame)
        let session = PlayerSession(book: book, media: media, settings: try library.settings.ofBook(book.id!),
                                    library: library, engine: engine, outputName: outputName, start: startPosition, clock: clock)
        session.timeline.userChapters = try library.books.userChapters(ofBook: book.id!)
        let title = book.title
        session.recorder.onError = { [weak self] in self?.tell(.problem("saving the position of \(title): \($0)")) }
        self.session = session
        prepare(session)
        // Where the book is loaded is the chapter the listener is told they are in (a cue at
        // start-up included): not announced again when the first position is heard.
        defer { knownChapter = session.timeline.chapterIndex(at: session.position) }
        guard playing else {
            session.cue(paths: media.map(\.path), savedAt: start.savedAt)
            return .cued(book: book, seconds: session.timeline.bookSeconds(session.position), item: session.position.item,
                         itemCount: media.count)
        }
        // Smart rewind across runs of the player and book switches: the time since the place
        // was saved is the pause (none at the top of a finished book).
        if let savedAt = start.savedAt, let back = session.rewindBeforeStart(savedAt: savedAt) {
            tell(.rewound(seconds: back))
        }
        session.start(paths: media.map(\.path), end: end)
        sleepControl.armDefault(session)
        return .started(book: book, seconds: session.timeline.bookSeconds(session.position), item: session.position.item,
                        itemCount: media.count, output: outputName)
    }

    /// A new session's speed, volume, item order and auto-rewind.
    private func prepare(_ session: PlayerSession) {
        session.engine.setSpeed(session.settings.speed)
        session.engine.setVolume(session.settings.volume)
        BookSettingsControl.applySkipSilence(session)
        BookSettingsControl.applyItemTrim(session)
        if let problem = loudness.apply(to: session) { tell(problem) }
        BookSettingsControl.applyOrder(session, replanning: true)
        // Unreadable preferences are not worth refusing to play: the defaults then.
        let preferences = (try? library.settings.playerPreferences()) ?? PlayerPreferences()
        session.aids.rewind.maxSeconds = preferences.autoRewind ? preferences.autoRewindMaxSeconds : nil
    }

    /// `output NAME`: the output from now on, for the book loaded at once.
    func switchOutput(to name: String) throws -> PlayerOutcome {
        let sinks = try openOutput(name)
        chosenOutput = name
        guard let session else { return .output(name, playing: false) }
        session.outputName = name
        session.engine.setOutput(sinks)
        return .output(name, playing: true)
    }

    func openOutput(_ name: String) throws(PlayerError) -> any SinkOpener {
        do {
            return try outputs.open(name)
        } catch {
            throw PlayerError("\(error)")
        }
    }

    // MARK: Events

    /// What to tell the listener about an engine event, if anything: the one mapping of engine
    /// events to messages.
    private func notice(for event: PlaybackEvent, of session: PlayerSession) -> PlayerNotice? {
        switch event {
        case let .failed(item, error):
            filesWarnedAbout.isFirst(about: session.timeline.items[item].path)
                ? .itemFailed(item: item, title: session.timeline.items[item].title, reason: "\(error)") : nil
        case .ended: nil // bookEnded says it, knowing what comes next
        case let .outputLost(message) where !session.hasPlayed: .outputUnavailable(message)
        case let .outputLost(message): .outputLost(message)
        case .outputRestored: .outputRestored
        case let .outputMoved(message): .outputMoved(message)
        case .outputChanged: .outputChanged(session.outputName)
        case .position, .itemChanged, .stateChanged, .fadedOut, .fadeCancelled, .speedChanged, .volumeChanged,
             .itemsReplaced, .silenceSkipped, .trimmed, .jumped: nil
        }
    }

    /// A new chapter reached by playing on (a position heard, or a fade that paused, past the
    /// chapter the listener knows), never by a jump: a jump moves the place at once, so the
    /// positions heard after it are in the chapter it went to already, and its command said
    /// where that is. Said once, whichever of the two events comes first.
    private func chapterNotice(after event: PlaybackEvent, of session: PlayerSession) -> PlayerNotice? {
        let place: PlaybackPosition
        switch event {
        case .position: place = session.position
        case let .fadedOut(at): place = at
        default: return nil
        }
        guard let now = session.timeline.chapterIndex(at: place), now != knownChapter else { return nil }
        knownChapter = now
        let chapters = session.timeline.chapters
        return .chapterStarted(number: now + 1, count: chapters.count, title: chapters[now].title)
    }

    /// The book ended (marked finished by the recorder): the next queued book starts from its
    /// saved place. Not when a sleep timer was set to stop at this end.
    private func bookEnded(_ session: PlayerSession) {
        // A countdown still running was not set to stop at this end: it goes on into the queue's
        // next book with what is left (a sleep default, armed at every start, must not stop the queue).
        var countdown: (set: Double, left: Double)?
        if case let .duration(set) = session.sleepTimer.mode { countdown = (set, session.sleepTimer.remaining().seconds) }
        if session.sleepTimer.mode != .off, countdown == nil || (try? library.queue.books().isEmpty) != false {
            tell(.ended(book: session.book.title, startsAgain: session.hasEnded))
            session.sleepTimer.set(.off, playing: false)
            tell(.sleepTimerOff)
            return
        }
        do {
            guard let next = try library.queue.dequeue() else {
                tell(.ended(book: session.book.title, startsAgain: session.hasEnded))
                return
            }
            tell(.ended(book: session.book.title, startsAgain: false))
            tell(.queueNext(next))
            if case let .started(book, seconds, item, count, output) = try load(next) {
                if let countdown, let started = self.session {
                    started.sleepTimer.set(.duration(set: countdown.set), seconds: countdown.left, playing: started.engine.state == .playing)
                    sleepControl.scheduleSleepWakeUp(started)
                }
                tell(.started(book: book, seconds: seconds, item: item, itemCount: count, output: output))
            }
        } catch {
            tell(.problem("queue: \(error)"))
        }
    }
}
