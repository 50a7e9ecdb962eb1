import Library
import Player
import PlayerCore

/// What a player command did, in the REPL's words: the same lines at a terminal, in a script's
/// output and in a control socket client's reply.
extension CommandRunner {
    /// Shows what a player command did, in the REPL's words.
    func show(_ outcome: PlayerOutcome) {
        capture?.outcomes.append(TypedOutcome(outcome))
        recordedOutcomes?.append(outcome)
        switch outcome {
        case .done, .status: break
        case let .started(book, seconds, item, count, output):
            say(TerminalText.visible(PlayerNotice.started(book: book, seconds: seconds, item: item, itemCount: count, output: output).text))
            sayDefaultSleepTimer()
        case let .cued(book, seconds, item, count):
            say(TerminalText.visible("#\(book.id!) \(book.title), paused at \(Timecode.format(seconds: seconds)) (item \(item + 1)/\(count)): 'play' or Enter plays on"))
        case let .moved(place): say(TerminalText.visible(place.text))
        case let .paused(place): say(TerminalText.visible("paused at \(place.text)"))
        case let .resumed(place): say(TerminalText.visible("playing from \(place.text)"))
        case let .undone(place): say(TerminalText.visible("back to \(place.text)"))
        case let .chapters(book, chapters, current):
            for line in ChapterText.lines(book: book, chapters, current: current) { say(TerminalText.visible(line)) }
        case let .chapterEdited(change): say(TerminalText.visible(change.text))
        case let .bookmarked(place):
            say(TerminalText.visible("bookmark \(place.number) at \(place.time)\(place.note.map { ": \($0)" } ?? "")"))
        case let .bookmarks(book, places):
            if places.isEmpty { say(TerminalText.visible("no bookmarks in \(book)")) }
            for place in places { say(TerminalText.visible(place.line)) }
        case let .jumpedToBookmark(mark, place):
            // The line every move answers with, after the bookmark it went to.
            say(TerminalText.visible("at bookmark \(mark.number)\(mark.note.map { " (\($0))" } ?? ""): \(place.text); 'undo' goes back"))
        case let .bookmarkRemoved(place, moved): say(Self.removed(place, moved: moved))
        case let .bookmarkNoted(place):
            say(TerminalText.visible("bookmark \(place.number) at \(place.time): \(place.note ?? "no note")"))
        case let .defaults(defaults, changed):
            if changed == .plain { plainMode?.choose(defaults.plain) }
            // After `set NAME VALUE`, the one line it changed, saying it is a default.
            if let changed { say("default " + defaults.line(changed).split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")) }
            else { defaults.lines.forEach(say) }
        case let .settings(speed, volume, place):
            let whose = player.status.map { " (\($0.speedSource == .book ? "this book" : "default"))" } ?? ""
            say(TerminalText.visible("speed \(Status.speedText(speed))\(whose), volume \(SettingText.volumeLabel(volume)) · \(place.text)"))
        case let .output(name, playing): if !playing { say("books will play through \(name)") }
        case let .sleepTimer(description): say("sleep timer: \(description ?? "off")")
        case let .queue(books):
            if books.isEmpty { say("the queue is empty") }
            for (index, book) in books.enumerated() { say("\(index + 1)\t#\(book.id!)\t\(TerminalText.visible(book.title))") }
        case let .queued(book, count): say(TerminalText.visible("queued #\(book.id!) \(book.title) (\(count) in the queue)"))
        case let .alreadyQueued(book): say(TerminalText.visible("#\(book.id!) \(book.title) is already queued"))
        case let .queueMoved(from, to): say("moved \(from) to \(to)")
        case let .unqueued(position, _, title): say("removed \(position). \(title) from the queue")
        case .queueCleared: say("the queue is empty")
        case let .repeatMode(mode): say("repeat \(mode.rawValue)")
        case let .shuffle(on): say("shuffle \(on ? "on" : "off")")
        case let .rewind(maxSeconds): say(maxSeconds.map { "rewind auto, at most \(Int($0)) s" } ?? "rewind off")
        case let .introOutro(setting):
            say(setting.text)
        case let .skipSilence(setting, own, saved):
            say("skip silence \(SkipSilenceText.text(setting))\(own ? "" : " (default)") · silence skipped: \(Timecode.format(seconds: saved)) in this book")
        case let .stopped(book, reason):
            // Files played as given keep no place, and their player ends with the stop.
            say(TerminalText.visible(keepsPlaces ? "stopped \(book) (position saved): \(reason)" : "stopped \(book)"))
        case let .loudness(report): say(TerminalText.visible(report.text))
        case let .sync(outcome): showSync(outcome)
        }
    }

    func showSync(_ outcome: SyncOutcome) {
        switch outcome {
        case let .status(settings, books, problems):
            for problem in problems { complain(TerminalText.visible("sync: \(problem)")) }
            for line in SyncText.statusReport(settings, books) { say(TerminalText.visible(line)) }
        case let .exchanged(report):
            for problem in report.problems { complain(TerminalText.visible("sync: \(problem)")) }
            for line in SyncText.exchangeReport(report) { say(TerminalText.visible(line)) }
        case let .folder(settings):
            say(TerminalText.visible(SyncText.folderLine(settings)))
        case let .jumpOnStart(settings):
            say(SyncText.jumpOnStartLine(settings))
        case let .name(settings):
            say(TerminalText.visible(SyncText.nameLine(settings)))
        }
    }

    /// Just after a book started, a sleep timer can only be a default the listener set (the
    /// book's own, `book settings --sleep-timer`, or `set sleep`), armed as it started: said,
    /// with how to cancel it.
    /// The lines `show` says for `outcomes`, said nowhere else.
    func lines(of outcomes: [PlayerOutcome]) -> [String] {
        guard !outcomes.isEmpty else { return [] }
        let capture = OutputCapture()
        capturing(capture, in: location) { outcomes.forEach(show) }
        return capture.output
    }

    /// Runs `body` (a face's line or key, a socket client's line) and returns what the player
    /// commands it ran did.
    func recordingOutcomes<T>(_ body: () -> T) -> (T, [PlayerOutcome]) {
        recordedOutcomes = []
        defer { recordedOutcomes = nil }
        let result = body()
        return (result, recordedOutcomes ?? [])
    }

    /// The socket client whose line runs now, if one does.
    var requester: Int32? { capture?.requester }

    func sayDefaultSleepTimer() {
        if let sleep = player.status?.sleep { say("sleep timer: \(sleep.text) (your default; 'sleep off' cancels it)") }
    }

    /// "removed bookmark 1 at 0:20; bookmarks 2 to 3 are now 1 to 2": numbers are places in the
    /// list, so the ones after it moved, and a listener removing several must know.
    static func removed(_ place: BookmarkPlace, moved: Int) -> String {
        let said = "removed bookmark \(place.number) at \(place.time)"
        let first = place.number.index
        func number(_ index: Int) -> BookmarkNumber { place.number.atIndex(index) }
        switch moved {
        case ...0: return said
        case 1: return "\(said); bookmark \(number(first + 1)) is now \(place.number)"
        default: return "\(said); bookmarks \(number(first + 1)) to \(number(first + moved)) are now \(place.number) to \(number(first + moved - 1))"
        }
    }
}
