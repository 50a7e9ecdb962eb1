import Foundation
import Library
import Listening
import PlayerCore

/// The book being played: its engine, the recorder saving its position, and where it is.
/// Used from the controller's one task, which also feeds it the engine's events.
final class PlayerSession {
    /// The book as loaded; its title follows a rename while it plays.
    var book: Book
    /// The media ids by item index, and the engine's numbering of its events while a new item
    /// list is on its way to it.
    var numbering: ItemNumbering
    let engine: PlaybackEngine
    let recorder: ListeningRecorder
    var timeline: BookTimeline
    var settings: BookSettings
    var outputName: String
    /// Where the listener is, and the jumps the engine has not reported hearing yet.
    private(set) var place: PlaceTracker
    /// In shuffle, the order of this pass (a permutation of the items, decided once), which both
    /// the engine's automatic advance and `next`/`prev` follow; nil in order.
    var shufflePlan: [Int]?
    /// The sleep timer's setting and countdown, on the player's clock.
    var sleepTimer: SleepTimer
    /// Skip silence's savings, auto-rewind and loudness (`ListeningAids`).
    var aids: ListeningAids
    /// Asked and reported states, heard at all, ended (`PlayStateTracker`).
    private var playState = PlayStateTracker()
    /// Where the book was loaded, and whether it waits there, cued (`LoadedPlace`).
    var loaded: LoadedPlace

    init(book: Book, media: [Media], settings: BookSettings, library: LibraryDatabase,
         engine: PlaybackEngine, outputName: String, start: PlaybackPosition, clock: any PlayerClock) {
        self.book = book
        self.sleepTimer = SleepTimer(clock: clock)
        self.aids = ListeningAids(rewind: RewindState(clock: clock))
        self.numbering = ItemNumbering(mediaIds: media.map { $0.id! })
        self.engine = engine
        self.timeline = BookTimeline(media: media)
        self.settings = settings
        self.outputName = outputName
        self.place = PlaceTracker(position: start)
        self.loaded = LoadedPlace(place: start)
        self.recorder = ListeningRecorder(library: library, bookId: book.id!, mediaIds: numbering.mediaIds, start: start,
                                          speed: settings.speed, clock: clock)
    }

    var position: PlaybackPosition { place.position }
    /// The book's media ids, by item index.
    var mediaIds: [Int64] { numbering.mediaIds }

    /// The order the engine follows when an item ends.
    var order: ItemOrder { settings.repeatMode == .item ? .repeatItem : plainOrder }

    /// The order `next` and `prev` follow: repeating an item does not keep them on it.
    var plainOrder: ItemOrder {
        let repeating = settings.repeatMode == .book
        if let shufflePlan { return .sequence(shufflePlan, repeating: repeating) }
        return repeating ? .repeatList : .inOrder
    }
    var jumps: Int { place.jumps }
    var state: PlaybackState { playState.state(engine: engine.state) }
    var hasPlayed: Bool { playState.hasPlayed }
    var hasEnded: Bool { playState.hasEnded }

    /// Loads the book's files and starts playing at the session's position, to `end` if given.
    /// Another place to start from, before `start` (nothing heard yet: no jump to record).
    func startAt(_ target: PlaybackPosition) {
        place = PlaceTracker(position: target)
    }

    func start(paths: [String], end: PlaybackPosition?) {
        playState.asked(.playing)
        engine.load(paths, start: position, end: end)
    }

    /// Loads the book's files paused at the session's position: cued (see `LoadedPlace.cued`).
    func cue(paths: [String], savedAt: Date?) {
        loaded.cued = CuedStart(savedAt: savedAt)
        playState.asked(.paused)
        engine.load(paths, start: position, play: false)
    }

    func play() {
        loaded.cued = nil
        playState.asked(.playing)
        engine.play()
    }

    func pause() {
        playState.asked(.paused)
        engine.pause()
    }

    /// Goes to `target`, leaving an automatic bookmark where we were so `undo` can come back.
    func jump(to asked: PlaybackPosition, kind: BookmarkKind?) {
        // Where the engine lands it: out of a trimmed intro or outro (the pending jump must
        // be the place it will report).
        let target = timeline.landing(asked, trim: settings.itemTrim, next: order.next(after: asked.item, count: timeline.items.count))
        loaded.cued = nil
        if let kind { recorder.recordJump(kind) }
        playState.moved()
        engine.seek(to: target)
        place.jumped(to: target)
        aids.rewind.forgetPause()
        // The recorder's "heard" place is now the target: a jump right after this one must
        // bookmark here, and a save before the engine reports must not save the old place.
        recorder.handle(.position(target))
    }

    /// The place (and a jump not heard yet) in a replaced item list's numbering.
    func renumberPlace(_ renumbering: ItemRenumbering) { place.renumber(renumbering) }

    /// Follows an engine event: the place heard, chapters found on opening, the state.
    func follow(_ event: PlaybackEvent) {
        switch event {
        case let .position(heard):
            // The engine reports the place after its last item when that item fails to open: past
            // the book, nothing to follow.
            guard timeline.items.indices.contains(heard.item) else { break }
            playState.heardPosition()
            let tolerance = Int64(timeline.items[heard.item].sampleRate) * 2
            let before = place.position
            let jumping = place.pendingJump != nil
            guard place.heard(heard, tolerance: tolerance) else { return }
            if !jumping, heard.item == before.item {
                aids.silence.advanced(frames: heard.frame - before.frame, rate: timeline.items[heard.item].sampleRate)
            }
        case let .itemChanged(info):
            if !info.metadata.chapters.isEmpty, timeline.items.indices.contains(info.index) {
                timeline.items[info.index].chapters = info.metadata.chapters.map {
                    ChapterMark(startFrame: $0.startFrame, title: $0.title)
                }
            }
            // An item passed through before the last jump landed is not where the listener is:
            // not followed, not recorded (nor counted as played).
            guard !place.reportsAreStale else { return }
            place.itemChanged(to: info.index)
        case .jumped:
            place.seekTaken()
        case .ended:
            place.settled()
            playState.engineStoppedOnItsOwn()
            reachedEnd()
        case .outputLost, .outputMoved:
            playState.engineStoppedOnItsOwn()
        case let .stateChanged(state):
            playState.reportedState(state)
            aids.rewind.engineReported(state)
        case let .silenceSkipped(_, frames, rate):
            aids.silence.skipped(frames: frames, rate: rate)
        case .trimmed, .failed, .speedChanged, .volumeChanged, .fadedOut, .fadeCancelled, .outputRestored, .outputChanged,
             .itemsReplaced:
            break
        }
        if loaded.cued == nil { recorder.handle(event) }
    }

    /// The engine stopped at the end: when that is the end of the play order's last item (not a
    /// `play --to` point), the place is that item's last frame, so the bars are full; the last
    /// position heard trails the end by up to a report's interval and the output's latency.
    private func reachedEnd() {
        let here = position
        let item = timeline.items[here.item]
        // An outro left out ends the book before the file's end.
        let end = timeline.audibleRange(ofItem: here.item, trim: settings.itemTrim).end ?? item.frames
        guard here.item == recorder.lastItemInOrder, let frames = item.frames, let end,
              end - here.frame < Int64(item.sampleRate) * 3 else { return }
        place.reachedEnd(PlaybackPosition(item: here.item, frame: frames))
        playState.reachedEnd()
    }

    /// Pauses, saves the position and ends the engine.
    func close() {
        sleepTimer.replaceWakeUp()
        engine.pause()
        // What the engine heard last, numbered as the recorder's media ids are (a new item list
        // may be on its way to the engine still).
        let heard = engine.numberedPosition.map { numbering.current($0.position, itemListsReplaced: $0.itemListsReplaced) }
        if loaded.cued == nil { recorder.finish(at: place.pendingJump ?? heard ?? position) }
        engine.shutdown()
    }
}

/// Where a session's book was loaded, and whether it still waits there, cued.
struct LoadedPlace {
    /// The saved place the book was loaded at (before any auto-rewind): an exchange that moved
    /// the book to this place while it loaded moved nothing under the listener.
    let place: PlaybackPosition
    /// Set while the book waits, cued at the player's start, for the listener to play or move
    /// it: until then the recorder is not told anything (a start is not listening).
    var cued: CuedStart?
}

/// A book loaded paused at the player's start, not yet played or moved by the listener.
struct CuedStart {
    /// When its place was saved while playing (wall clock): the rewind on its first play goes
    /// back for the time since then, as a start playing does.
    let savedAt: Date?
}
