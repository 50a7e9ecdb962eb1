import Library
import Listening
import PlayerCore

/// The book being played: its engine, the recorder saving its position, and where it is.
/// Used from the REPL's one task, which also feeds it the engine's events.
final class PlayerSession {
    /// The book as loaded; its title follows a rename while it plays.
    var book: Book
    let mediaIds: [Int64]
    let engine: PlaybackEngine
    let recorder: ListeningRecorder
    var timeline: BookTimeline
    var settings: BookSettings
    var outputName: String
    /// Where the listener is: the last heard position, or where the last jump went.
    private(set) var position: PlaybackPosition
    /// A jump the engine has not reported hearing yet. Position events for other places are
    /// from before it (already queued) and must not move us back.
    private var pendingJump: PlaybackPosition?
    /// How many jumps there were (observers are told of each as a seek).
    private(set) var jumps = 0
    /// The items heard in this shuffle pass, in the order heard: `next` picks among the others,
    /// `prev` goes back along it.
    var heardThisPass: [Int] = []
    var sleepTimer = SleepTimer()
    /// The most auto-rewind goes back on resume; nil: off.
    var rewindMaxSeconds: Double?
    /// When the engine reported the pause now under way (nil while playing, or after a jump).
    var pausedSince: ContinuousClock.Instant?
    /// Says a line to the user (the console's `say`).
    var onNotice: (String) -> Void = { _ in }

    init(book: Book, media: [Media], settings: BookSettings, library: LibraryDatabase,
         engine: PlaybackEngine, outputName: String, start: PlaybackPosition) {
        self.book = book
        self.mediaIds = media.map { $0.id! }
        self.engine = engine
        self.timeline = BookTimeline(media: media)
        self.settings = settings
        self.outputName = outputName
        self.position = start
        self.recorder = ListeningRecorder(library: library, bookId: book.id!, mediaIds: mediaIds, start: start,
                                          speed: settings.speed)
    }

    /// What the listener asked for last, until the engine reports it: `status` right after
    /// `pause` says paused.
    private var requestedState: PlaybackState?

    var state: PlaybackState { requestedState ?? engine.state }

    /// Loads the book's files and starts playing at the session's position.
    func start(paths: [String]) {
        requestedState = .playing
        engine.load(paths, start: position)
    }

    func play() {
        if state == .paused { rewindAfterPause() }
        requestedState = .playing
        engine.play()
    }

    func pause() {
        requestedState = .paused
        engine.pause()
    }

    func toggle() {
        if state == .paused { rewindAfterPause() }
        requestedState = state == .playing ? .paused : .playing
        engine.toggle()
    }

    /// Goes to `target`, leaving an automatic bookmark where we were so `undo` can come back.
    func jump(to target: PlaybackPosition, kind: BookmarkKind?) {
        jumps += 1
        if let kind { recorder.recordJump(kind) }
        engine.seek(to: target)
        position = target
        pendingJump = target
        pausedSince = nil
        // The recorder's "heard" place is now the target: a jump right after this one must
        // bookmark here, and a save before the engine reports must not save the old place.
        recorder.handle(.position(target))
    }

    /// Returns what to tell the user about the event, if anything.
    func handle(_ event: PlaybackEvent) -> String? {
        switch event {
        case let .position(heard):
            if let pending = pendingJump {
                let tolerance = Int64(timeline.items[pending.item].sampleRate) * 2
                guard heard.item == pending.item, abs(heard.frame - pending.frame) < tolerance else { return nil }
                pendingJump = nil
            }
            position = heard
            recorder.handle(event)
            return nil
        case let .itemChanged(info):
            if heardThisPass.last != info.index { heardThisPass.append(info.index) }
            if !info.metadata.chapters.isEmpty, timeline.items.indices.contains(info.index) {
                timeline.items[info.index].chapters = info.metadata.chapters.map {
                    ChapterMark(startFrame: $0.startFrame, title: $0.title)
                }
            }
            if pendingJump?.item != info.index { pendingJump = nil }
            recorder.handle(event)
            return nil
        case let .failed(item, error):
            recorder.handle(event)
            return "item \(item + 1) (\(timeline.items[item].title)): \(error)"
        case .ended:
            pendingJump = nil
            requestedState = nil
            recorder.handle(event)
            return "\(book.title): the end"
        case let .outputLost(message):
            requestedState = nil
            return "output lost: \(message); paused (position saved), resuming when it is back"
        case .outputRestored:
            return "output back; playing on"
        case let .outputMoved(message):
            requestedState = nil
            return "\(message); paused: 'play' continues"
        case .outputChanged:
            return "now playing through \(outputName)"
        case let .stateChanged(state):
            if state == requestedState || state == .stopped { requestedState = nil }
            pausedSince = state == .paused ? .now : nil
            recorder.handle(event)
            return nil
        case .fadedOut, .fadeCancelled:
            return nil // the console's sleep timer reports these
        case .speedChanged, .volumeChanged:
            // The recorder starts a new listening session at a new speed.
            recorder.handle(event)
            return nil
        }
    }

    /// Pauses, saves the position and ends the engine.
    func close() {
        sleepTimer.replaceWakeUp()
        engine.pause()
        recorder.finish(at: pendingJump ?? engine.position ?? position)
        engine.shutdown()
    }
}
