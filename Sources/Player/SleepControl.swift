import Foundation
import Library
import PlayerCore

/// The sleep timer of the book loaded: `sleep ...`, its countdown's wake-up (on the player's
/// clock, back through `wake`), and the engine's fade reports. The timer's state is the
/// session's (`PlayerSession.sleepTimer`); this is what acts on it.
struct SleepControl {
    let library: LibraryDatabase
    let clock: any PlayerClock
    let wake: @Sendable (PlayerInput) -> Void

    func perform(_ command: SleepCommand, session: PlayerSession?) throws -> PlayerOutcome {
        guard let session else { throw PlayerError("nothing is playing: 'play BOOK' first") }
        return try sleep(command, session)
    }

    private func sleep(_ command: SleepCommand, _ session: PlayerSession) throws -> PlayerOutcome {
        let playing = session.state == .playing
        switch command {
        case .show:
            return .sleepTimer(session.sleepTimer.description)
        case let .duration(seconds):
            stopFade(session)
            // This time only: the book's own sleep default is `book settings --sleep-timer`'s.
            session.sleepTimer.set(.duration(set: seconds), seconds: seconds, playing: playing)
        case let .extend(seconds):
            if case .endOfChapter = session.sleepTimer.mode {
                throw PlayerError("the timer stops at the end of the chapter; 'sleep 30m' sets a time instead")
            } else if case .endOfItem = session.sleepTimer.mode {
                throw PlayerError("the timer stops at the end of the item; 'sleep 30m' sets a time instead")
            }
            stopFade(session)
            session.sleepTimer.extend(by: seconds, playing: playing)
        case .endOfChapter, .endOfItem:
            stopFade(session)
            setPausePoint(session, chapter: command == .endOfChapter)
        case .off:
            stopFade(session)
            session.sleepTimer.set(.off, playing: playing)
        case .cycle:
            return try sleep(nextInCycle(session.sleepTimer.mode), session)
        }
        scheduleSleepWakeUp(session)
        return .sleepTimer(session.sleepTimer.description)
    }

    /// off -> 15m -> 30m -> 45m -> 60m -> chapter -> off.
    private func nextInCycle(_ mode: SleepTimer.Mode) -> SleepCommand {
        switch mode {
        case .off, .fading: .duration(SleepTimer.cycleMinutes[0] * 60)
        case let .duration(set):
            SleepTimer.cycleMinutes.first { $0 * 60 > set + 0.5 }.map { .duration($0 * 60) } ?? .endOfChapter
        case .endOfChapter, .endOfItem: .off
        }
    }

    /// A fade or pause point in the engine is replaced by the new setting. The engine reports
    /// the cancel it did for us too: that report is expected, not news.
    private func stopFade(_ session: PlayerSession) {
        switch session.sleepTimer.mode {
        case .fading, .endOfChapter, .endOfItem:
            session.sleepTimer.expectedCancels += 1
            session.engine.cancelFade()
        case .off, .duration:
            break
        }
    }

    /// The engine pauses by itself at the end of the chapter (the next chapter's start when it
    /// is in this item, else the item's end) or of the item: exact, not a poll.
    private func setPausePoint(_ session: PlayerSession, chapter: Bool) {
        let here = session.position
        var point = PausePoint.endOfItem(here.item)
        if chapter {
            let next = (session.timeline.chapterIndex(at: here) ?? -1) + 1
            let chapters = session.timeline.chapters
            if chapters.indices.contains(next), chapters[next].item == here.item {
                point = .position(PlaybackPosition(item: here.item, frame: chapters[next].startFrame))
            }
        }
        session.sleepTimer.set(chapter ? .endOfChapter : .endOfItem, playing: session.state == .playing)
        session.engine.setPausePoint(point, fadeSeconds: SleepTimer.fadeSeconds)
    }

    /// Arms the book's sleep default, or else the listener's (`set sleep`), as a book starts.
    func armDefault(_ session: PlayerSession) {
        // Unreadable preferences are no reason to refuse to play: no timer then.
        guard let seconds = session.settings.sleepTimerSeconds ?? (try? library.settings.playerPreferences())?.defaultSleepSeconds
        else { return }
        session.sleepTimer.set(.duration(set: seconds), seconds: seconds, playing: session.engine.state == .playing)
        scheduleSleepWakeUp(session)
    }

    /// While a duration counts down, a task wakes the player when the fade must start.
    func scheduleSleepWakeUp(_ session: PlayerSession) {
        guard case .duration = session.sleepTimer.mode, session.sleepTimer.isCounting else { return }
        let delay = max(.zero, session.sleepTimer.remaining() - .seconds(SleepTimer.fadeSeconds))
        let generation = session.sleepTimer.generation
        let wake = wake
        session.sleepTimer.wakeUp = clock.schedule(after: delay) { wake(.sleepTimerDue(generation: generation)) }
        // A minute's warning, only for a countdown with more than that to go: one just set to a
        // minute or less has said how long it has.
        let untilWarning = session.sleepTimer.remaining() - .seconds(SleepTimer.warningSeconds)
        if untilWarning > .milliseconds(500) {
            session.sleepTimer.warning = clock.schedule(after: untilWarning) { wake(.sleepTimerWarning(generation: generation)) }
        }
    }

    /// The minute's warning came: said when it is the current countdown's and a minute is left
    /// (a wake-up that came early is scheduled again).
    func warn(generation: Int, session: PlayerSession?) -> PlayerNotice? {
        guard let session, generation == session.sleepTimer.generation, session.sleepTimer.isCounting else { return nil }
        let left = session.sleepTimer.remaining()
        if left > .seconds(SleepTimer.warningSeconds) + .milliseconds(50) {
            let wake = wake
            session.sleepTimer.warning = clock.schedule(after: left - .seconds(SleepTimer.warningSeconds)) {
                wake(.sleepTimerWarning(generation: generation))
            }
            return nil
        }
        return .sleepTimerEnding(secondsLeft: SleepTimer.warningSeconds)
    }

    /// The wake-up came: fade out over what is left (10 s, or less when set shorter), or sleep on
    /// when it came early.
    func due(generation: Int, session: PlayerSession?) {
        guard let session, generation == session.sleepTimer.generation, session.sleepTimer.isCounting else { return }
        let left = session.sleepTimer.remaining().seconds
        if left > SleepTimer.fadeSeconds + 0.05 {
            session.sleepTimer.replaceWakeUp()
            scheduleSleepWakeUp(session)
            return
        }
        session.sleepTimer.startFading()
        session.engine.fadeOut(seconds: max(0.1, left))
    }

    /// Reacts to the engine's events for the sleep timer: the countdown runs only while playing,
    /// a fade that went to silence leaves a bookmark, a cancelled one turns the timer off.
    /// Returns what to say.
    func handle(_ event: PlaybackEvent, of session: PlayerSession) -> [PlayerNotice] {
        var notices: [PlayerNotice] = []
        switch event {
        case let .stateChanged(state):
            session.sleepTimer.playing(state == .playing)
            scheduleSleepWakeUp(session)
        case let .fadedOut(place):
            session.sleepTimer.set(.off, playing: false)
            session.sleepTimer.expectedCancels = 0
            do {
                try library.bookmarks.add(bookId: session.book.id!, mediaId: session.mediaIds[place.item], frame: place.frame, kind: .sleepTimer)
            } catch {
                notices.append(.problem("sleep timer: bookmarking \(session.book.title): \(error)"))
            }
            notices.append(.sleepPaused(at: session.timeline.bookSeconds(place)))
        case .fadeCancelled:
            if session.sleepTimer.expectedCancels > 0 {
                session.sleepTimer.expectedCancels -= 1
            } else if session.sleepTimer.mode != .off {
                session.sleepTimer.set(.off, playing: false)
                notices.append(.sleepTimerOff)
            }
        default:
            break
        }
        return notices
    }
}
