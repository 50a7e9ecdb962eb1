/// Which `ListeningEvent`s a newly published state makes, compared with the one published
/// before it: a load's first playing is `started`, playing again after a pause (or a stop)
/// `resumed`, a pause `paused`, another chapter `chapter`. The events
/// that no state shows (a bookmark, the sleep timer, the end, a lost output, a sync) are the
/// controller's to tell as they happen.
struct ListeningEventTracker {
    /// The load (`PlayerController.generation`) the last state was of; nil when none was loaded.
    private var generation: Int?
    private var state: BookState?
    private var chapterNumber: Int?
    /// The load whose first playing was told (`started`): a book loaded paused (cued at the
    /// player's start) starts, rather than resumes, when first played.
    private var startedGeneration: Int?

    /// The events `status` (of load `generation`; nil: nothing loaded) makes, in order.
    mutating func follow(_ status: Status?, generation: Int) -> [ListeningEvent.Kind] {
        guard let status else {
            self = ListeningEventTracker()
            return []
        }
        let sameLoad = generation == self.generation
        var kinds: [ListeningEvent.Kind] = []
        if status.state == .playing {
            if startedGeneration != generation || state == .finished {
                kinds.append(.started)
                startedGeneration = generation
            } else if state != .playing {
                kinds.append(.resumed)
            }
        } else if sameLoad, state == .playing, status.state == .paused {
            // Not `.stopped`: the engine stops at the book's end (that is `finished`) and when
            // its output went (`output-lost`).
            kinds.append(.paused)
        }
        // A start says its chapter itself; before the first play a cued book's moves are not news.
        if kinds != [.started], sameLoad, startedGeneration == generation, let chapter = status.chapterNumber, chapter != chapterNumber {
            kinds.append(.chapter)
        }
        self.generation = generation
        state = status.state
        chapterNumber = status.chapterNumber
        return kinds
    }
}
