import Foundation
public import Library
public import PlayerCore

/// Writes what the playback engine reports into the library while a book plays: the position
/// about once a second while playing and at every pause, stop, item change and the end; the
/// listening session; play counts; the finished mark. Each save is its own short transaction.
///
/// Driven by the engine's events (no timer): the engine publishes the heard position every tenth
/// of a second of playback, and a save happens on the first such event at least `saveInterval`
/// after the last save. With 0.9 s the saved position trails what was heard by at most about
/// 1 s, so a `kill -9` loses no more than that.
///
/// Used from one task (the one reading the engine's events).
public final class ListeningRecorder {
    public let library: LibraryDatabase
    public let bookId: Int64
    /// The book's media ids, by engine item index.
    public private(set) var mediaIds: [Int64]
    /// The speed sessions are recorded at; a change starts a new session.
    public private(set) var speed: Double
    public var saveInterval: Duration = .milliseconds(900)
    /// The item the play order ends with: the last one, or in shuffle the plan's last. The book
    /// is finished when playback ends there (and it played).
    public lazy var lastItemInOrder = mediaIds.count - 1
    /// Called when a save fails (the disk is full, the database is locked too long): playback
    /// goes on, the next save tries again.
    public var onError: (any Error) -> Void = { _ in }

    /// The player's clock: when the last save was, how long a session ran.
    private let clock: any PlayerClock
    private var lastSave: Duration?
    private var heard: PlaybackPosition?
    private var session: (id: Int64, started: Duration)?
    /// Source seconds skip silence cut out during the session under way (saved with it).
    private var silenceSkippedInSession = 0.0
    /// Source seconds of intros and outros left out for the session under way, or the next one
    /// (the first item's intro is left out as it loads, before the session starts).
    private var introOutroSkippedInSession = 0.0
    /// Items that failed to open or decode: a position in them is not where the listener is.
    private var failedItems: Set<Int> = []

    public init(library: LibraryDatabase, bookId: Int64, mediaIds: [Int64], start: PlaybackPosition, speed: Double = 1,
                clock: any PlayerClock = MonotonicClock()) {
        self.library = library
        self.clock = clock
        self.bookId = bookId
        self.mediaIds = mediaIds
        self.speed = speed
        heard = start
    }

    /// The last position the engine reported as heard (in an item that played).
    public var position: PlaybackPosition? { heard }

    public func handle(_ event: PlaybackEvent) {
        switch event {
        case let .position(position):
            guard !failedItems.contains(position.item) else { return }
            heard = position
            if lastSave.map({ clock.now - $0 >= saveInterval }) ?? true { save() }
        case let .itemChanged(info):
            failedItems.remove(info.index)
            attempt { try library.positions.countPlay(mediaId: mediaIds[info.index]) }
            if let heard, heard.item != info.index { self.heard = PlaybackPosition(item: info.index, frame: 0) }
            save()
        case let .failed(item, _):
            failedItems.insert(item)
        case let .stateChanged(state):
            switch state {
            case .playing: openSession()
            case .paused, .stopped: closeSession()
            }
        case .outputLost, .outputRestored, .outputMoved, .outputChanged:
            break // the engine also reports the state change (paused, playing) these bring
        case let .speedChanged(newSpeed):
            // A session has one speed: the one under way ends here and the next starts at the new.
            guard newSpeed != speed else { return }
            let wasOpen = session != nil
            closeSession()
            speed = newSpeed
            if wasOpen { openSession() }
        case .fadedOut, .fadeCancelled:
            break
        case .jumped:
            break // the player tells the recorder where a jump went when it makes it (`handle(.position)`)
        case .itemsReplaced:
            break // the player renumbers the indices kept here (`renumber`) when it replaces the items
        case let .silenceSkipped(_, frames, rate):
            guard rate > 0 else { return }
            silenceSkippedInSession += Double(frames) / Double(rate)
        case let .trimmed(_, frames, rate):
            guard rate > 0 else { return }
            introOutroSkippedInSession += Double(frames) / Double(rate)
        case .volumeChanged:
            break // per-book settings are saved by whoever changes them, not from the engine
        case .ended:
            closeSession()
            if heard?.item == lastItemInOrder, !failedItems.contains(lastItemInOrder) {
                attempt { try library.positions.markFinished(bookId: bookId) }
            }
        }
    }

    /// The book's items changed while it plays (files joined it): `mediaIds` is the new list,
    /// and the items already known are renumbered by `renumbering`. The saved position names a
    /// media id, so it stays right; only the indices kept here move.
    public func renumber(mediaIds newIds: [Int64], _ renumbering: ItemRenumbering) {
        mediaIds = newIds
        heard = heard.map { renumbering($0) }
        failedItems = Set(failedItems.map { renumbering($0) })
    }

    /// The last save, at exit or on a signal: `position` is the engine's final heard position.
    public func finish(at position: PlaybackPosition?) {
        if let position, !failedItems.contains(position.item), mediaIds.indices.contains(position.item) {
            heard = position
        }
        closeSession()
    }

    /// Saves the place heard now, however soon after the last save: a place moved while paused
    /// (no event follows to save it) before it goes to the sync journal.
    public func saveNow() { save() }

    /// Before a seek, skip or jump, and when a sleep timer stops playback: an automatic bookmark
    /// at the place being left, so "undo the last jump" can go back.
    public func recordJump(_ kind: BookmarkKind) {
        guard kind.isAutomatic, let heard, mediaIds.indices.contains(heard.item) else { return }
        attempt { try library.bookmarks.add(bookId: bookId, mediaId: mediaIds[heard.item], frame: heard.frame, kind: kind) }
    }

    private func openSession() {
        guard session == nil, let heard, mediaIds.indices.contains(heard.item) else { return }
        attempt {
            let id = try library.positions.startSession(bookId: bookId, mediaId: mediaIds[heard.item], frame: heard.frame, speed: speed)
            session = (id, clock.now)
            silenceSkippedInSession = 0
        }
    }

    /// Ends the session under way; one in which under a second was heard (a speed key pressed
    /// twice, play then pause) was no listening, and is not kept: `history` and `stats` count
    /// only real listening.
    private func closeSession() {
        save()
        if let session { attempt { try library.positions.forgetSessionIfNothingHeard(session.id) } }
        if session != nil { introOutroSkippedInSession = 0 }
        session = nil
    }

    private func save() {
        guard let heard, mediaIds.indices.contains(heard.item) else { return }
        let wall = session.map { (clock.now - $0.started).seconds } ?? 0
        attempt {
            try library.positions.saveProgress(bookId: bookId, mediaId: mediaIds[heard.item], frame: heard.frame,
                                               session: session?.id, wallSeconds: wall)
            if let id = session?.id, silenceSkippedInSession > 0 {
                try library.history.saveSkipped(.silence, session: id, seconds: silenceSkippedInSession)
            }
            if let id = session?.id, introOutroSkippedInSession > 0 {
                try library.history.saveSkipped(.introOutro, session: id, seconds: introOutroSkippedInSession)
            }
        }
        lastSave = clock.now
    }

    private func attempt(_ body: () throws -> Void) {
        do { try body() } catch { onError(error) }
    }
}
