import Foundation
public import Library
public import Player
public import PlayerCore
public import Listening
import StandardStreams

/// Something the REPL's one task reacts to: a line typed (or scripted), the end of the input,
/// the player's engine events and timers, or a termination signal.
public enum ConsoleInput: Sendable {
    case line(String)
    case endOfInput
    /// An engine event or a timer of the player controller, handed back to it on this task.
    case player(PlayerInput)
    case terminate
    /// A key pressed while a full screen shows.
    case key(Key)
    /// The terminal's window changed size (SIGWINCH).
    case resize
    /// A command line from a control socket client.
    case remote(RemoteRequest)
    /// A typed command from outside the terminal (MPRIS).
    case request(PlayerRequest)
    /// What the library watch did, one change per book (`LibraryWatch`).
    case libraryChanged([LibraryChange])
    /// A pass of the library watch failed (it goes on watching).
    case libraryWatchFailed(String)
    /// A `chapters detect` running beside the REPL ended.
    case chaptersDetected(ChapterDetectionRequest, Result<ChapterDetector.Result, any Error>)
    /// The state of the player a client REPL's screen is attached to, from its control socket
    /// (`RemotePlayerScreen`); nil when it has no book loaded.
    case attachedStatus(Status?)
    /// That player closed the connection: it stopped.
    case attachedPlayerStopped
}

/// The REPL: parses lines into commands, runs the player's through the player controller and the
/// library's itself, and shows what they did. Everything happens on the task reading `inputs`
/// (lines, keys and the player's events alike), so nothing here is shared.
public final class Console {
    let library: LibraryDatabase
    /// For the importer (library commands); playback goes through `player`.
    let decoders: any DecoderOpener
    public let player: PlayerController
    /// The shelf `ls` shows, "" at the top; shared with the line editor for the prompt and
    /// completion. A socket client's line runs in that client's own shelf instead.
    public let location: ShelfLocation
    /// The shelf the line being run works in: the terminal's, or a socket client's.
    var here: ShelfLocation
    /// Lines for the line editor to print above the prompt (see `Notices`).
    public let notices = Notices()
    /// True while the line editor waits at the prompt (a terminal, no typed line running):
    /// whatever is said then (engine messages, the queue's next book, the sleep timer) goes
    /// above the prompt instead of into the middle of what is being typed.
    var userIsAtPrompt = false
    let inputs: AsyncStream<ConsoleInput>.Continuation
    /// The full screen showing (`now`, `art`), if any; keys are read while it shows.
    let screens = ScreenHost()
    public let keyMode = KeyMode()
    /// Whether the commands come from a terminal (a full screen can show).
    var isInteractive = false
    /// Where what is said goes while a remote line runs.
    var capture: OutputCapture?
    /// The watch on the library's folders, while the player runs (`watchLibrary()`).
    var watch: LibraryWatch?
    /// Whether the lines come one at a time from the REPL's own input (a terminal or a pipe), so
    /// that a question can be answered by the next one; a `-c` script cannot answer.
    var answersFollow = false
    /// `chapters detect` typed at a terminal: running beside the REPL, or asking whether to store.
    var chapterDetection = ChapterDetectionState()

    public init(library: LibraryDatabase, decoders: any DecoderOpener, outputs: Outputs, output: String?,
                inputs: AsyncStream<ConsoleInput>.Continuation) {
        self.library = library
        self.decoders = decoders
        self.inputs = inputs
        self.player = PlayerController(library: library, decoders: decoders, outputs: outputs, output: output,
                                       wake: { inputs.yield(.player($0)) })
        self.location = ShelfLocation()
        self.here = location
        player.onNotice = { [weak self] notice in
            guard let self else { return }
            // A notice is one line, whatever its title holds.
            let text = TerminalText.visible(notice.text)
            if notice.isProblem { complain(text) } else { say(text) }
            // The queue's next book started: a countdown carried on, or its sleep default armed.
            if case .started = notice, let sleep = player.status?.sleep { say("sleep timer: \(sleep) ('sleep off' cancels it)") }
        }
    }

    /// The state and events for observers outside the terminal (MPRIS, the control socket).
    public var broadcast: PlayerBroadcast { player.broadcast }

    public enum Outcome: Equatable, Sendable {
        case succeeded, failed, quit
    }

    /// Runs every command of a line; failed when any failed (the others still run). An empty
    /// line toggles play/pause when typed at the prompt (`typed`); in a script it does nothing.
    public func execute(line: String, typed: Bool = false) -> Outcome {
        if let answered = answer(line) { return answered }
        let commands: [[String]]
        do {
            commands = try Tokenizer.commands(in: line)
        } catch {
            complain(error.description)
            return .failed
        }
        if commands.isEmpty {
            if typed, player.loadedBook != nil { _ = try? player.perform(.toggle) }
            return .succeeded
        }
        var outcome = Outcome.succeeded
        for words in commands {
            let command: Command
            do {
                command = try Command(words: words)
            } catch {
                complain(error.description) // says which command itself
                outcome = .failed
                continue
            }
            if command == .quit { return .quit }
            do {
                try execute(command)
            } catch {
                complain(TerminalText.visible("\(words[0]): \(error)"))
                outcome = .failed
            }
        }
        return outcome
    }

    func execute(_ command: Command) throws {
        switch command {
        case let .help(topic): help(topic)
        case .list: try list()
        case let .changeShelf(path): try changeShelf(path)
        case .tree: try tree()
        case let .find(text): try find(text)
        case let .play(reference): try play(reference)
        case .stop: try perform(.stop(reason: "'play' starts it again there"))
        case .pause: try perform(.pause)
        case .toggle: try perform(.toggle)
        case let .skip(forward, seconds): try perform(.skip(forward: forward, seconds: seconds))
        case let .seek(target): try perform(.seek(target))
        case let .goto(item, seconds): try goto(item: item, seconds: seconds)
        case .nextItem: try perform(.nextItem)
        case .previousItem: try perform(.previousItem)
        case let .chapter(target): try perform(.chapter(target))
        case let .chapters(reference): try perform(.chapters(bookId: try reference.map { try library.book(matching: $0).id! }))
        case let .chapterLine(line): try chapterLine(line)
        case .undo: try perform(.undo)
        case let .bookmark(note): try perform(.bookmark(note: note))
        case let .bookmarks(all): try perform(.bookmarks(bookId: nil, all: all))
        case let .jumpToBookmark(id): try perform(.gotoBookmark(id))
        case let .removeBookmark(id): try perform(.removeBookmark(id))
        case let .noteBookmark(id, note): try perform(.noteBookmark(id, note: note))
        case let .defaults(command): try perform(.defaults(command))
        case let .useDefault(setting): try perform(.useDefault(setting))
        case let .speed(speed): try perform(.speed(speed))
        case let .volume(percent): try perform(.volume(percent: percent))
        case let .stepSpeed(step): try perform(.stepSpeed(by: step))
        case let .stepVolume(step): try perform(.stepVolume(by: step))
        case let .skipSilence(setting): try perform(.skipSilence(setting))
        case let .output(name): try perform(.output(name))
        case let .status(json): try status(json: json)
        case .quit: break
        case let .library(command): try run(command)
        case let .sleep(sleep): try perform(.sleep(sleep))
        case let .queue(queue): try self.queue(queue)
        case let .playbackMode(mode): try playbackMode(mode)
        case let .screen(command): try execute(command)
        case let .sync(request): try perform(.sync(request))
        case let .loudness(line): try loudness(line)
        }
    }

    /// Runs a player command and shows what it did.
    func perform(_ command: PlayerCommand) throws(PlayerError) {
        show(try player.perform(command))
    }

    /// At the start of a REPL at a terminal or a daemon: the book listened to last, loaded paused
    /// at its place and said (`PlayerController.cueBookListenedToLast`). Not for a script or
    /// piped commands: what they do must not depend on what was listened to last.
    public func cueBookListenedToLast() {
        if let outcome = player.cueBookListenedToLast() { show(outcome) }
    }

    /// Saves the position and stops playback: at quit, at the end of a script, on a signal.
    public func close() {
        stopWatchingLibrary()
        player.close()
    }

    // MARK: Playback

    /// `play BOOK`, `play ITEM` (of the book loaded) or `play` (resume).
    func play(_ reference: String?) throws {
        guard let reference else { return try perform(.play(bookId: nil)) }
        // "#12" is always book 12 (the screens play books so), even when an item's title holds "#12".
        if !reference.hasPrefix("#"), let loaded = player.loadedBook, let item = ItemReference.index(reference, titles: loaded.itemTitles) {
            return try perform(.playItem(item))
        }
        try perform(.play(bookId: try library.book(matching: reference).id!))
    }

    func goto(item reference: String, seconds: Double?) throws {
        guard let loaded = player.loadedBook else { throw PlayerError("nothing is playing: 'play BOOK' first") }
        guard let (item, wanted) = ItemReference.gotoTarget(reference, seconds: seconds, titles: loaded.itemTitles) else {
            throw CommandError("no item '\(reference)' in \(loaded.book.title): use 1-\(loaded.itemTitles.count) or a unique part of its title")
        }
        try perform(.goto(item: item, seconds: wanted ?? 0))
    }

    func queue(_ line: QueueLine) throws {
        switch line {
        case .list: try perform(.queue(.list))
        case let .add(reference): try perform(.queue(.add(bookId: try library.book(matching: reference).id!)))
        case let .move(from, to): try perform(.queue(.move(from: from, to: to)))
        case let .remove(index): try perform(.queue(.remove(index)))
        case .clear: try perform(.queue(.clear))
        }
    }

    func playbackMode(_ mode: PlaybackModeCommand) throws {
        switch mode {
        case let .repeatMode(mode): try perform(.repeatMode(mode))
        case let .shuffle(on): try perform(.shuffle(on))
        case let .rewind(setting): try perform(.rewind(setting))
        }
    }

    func status(json: Bool) throws {
        guard case let .status(status) = try player.perform(.status) else { return }
        // A remote client gets the status as an object in its reply.
        if json, let capture, capture.status == nil {
            capture.status = status
            return
        }
        if json { return sayExactly(status.json) }
        // The report has lines of its own; a newline in a title must not add one.
        var shown = status
        shown.book = TerminalText.visible(status.book)
        shown.author = status.author.map(TerminalText.visible)
        shown.item = TerminalText.visible(status.item)
        shown.chapter = status.chapter.map(TerminalText.visible)
        shown.output = TerminalText.visible(status.output)
        // Device names come from other machines' journals.
        shown.elsewhere = status.elsewhere?.map { place in
            var place = place
            place.device = TerminalText.visible(place.device)
            return place
        }
        say(shown.text)
    }

    /// Shows what a player command did, in the REPL's words.
    func show(_ outcome: PlayerOutcome) {
        switch outcome {
        case .done, .status: break
        case let .started(book, seconds, item, count, output):
            say(TerminalText.visible(PlayerNotice.started(book: book, seconds: seconds, item: item, itemCount: count, output: output).text))
            sayDefaultSleepTimer()
        case let .cued(book, seconds, item, count):
            say(TerminalText.visible("#\(book.id!) \(book.title), paused at \(Timecode.format(seconds: seconds)) (item \(item + 1)/\(count)): 'play' or Enter plays on"))
        case let .moved(place): say(TerminalText.visible(place.text))
        case let .undone(place): say(TerminalText.visible("back to \(place.text)"))
        case let .chapters(book, chapters, current):
            for line in ChapterText.lines(book: book, chapters, current: current) { say(TerminalText.visible(line)) }
        case let .chapterEdited(change): say(TerminalText.visible(change.text))
        case let .bookmarked(place):
            say(TerminalText.visible("bookmarked #\(place.id) at \(place.time)\(place.note.map { ": \($0)" } ?? "")"))
        case let .bookmarks(book, places):
            if places.isEmpty { say(TerminalText.visible("no bookmarks in \(book)")) }
            for place in places { say(TerminalText.visible(place.line)) }
        case let .jumpedToBookmark(mark, place):
            // The line every move answers with, after the bookmark it went to.
            say(TerminalText.visible("at bookmark #\(mark.id)\(mark.note.map { " (\($0))" } ?? ""): \(place.text); 'undo' goes back"))
        case let .bookmarkRemoved(place): say("removed bookmark #\(place.id) at \(place.time)")
        case let .bookmarkNoted(place):
            say(TerminalText.visible("bookmark #\(place.id) at \(place.time): \(place.note ?? "no note")"))
        case let .defaults(defaults, changed):
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
        case let .unqueued(bookId): say("removed #\(bookId) from the queue")
        case .queueCleared: say("the queue is empty")
        case let .repeatMode(mode): say("repeat \(mode.rawValue)")
        case let .shuffle(on): say("shuffle \(on ? "on" : "off")")
        case let .rewind(maxSeconds): say(maxSeconds.map { "rewind auto, at most \(Int($0)) s" } ?? "rewind off")
        case let .skipSilence(setting, own, saved):
            say("skip silence \(SkipSilenceText.text(setting))\(own ? "" : " (default)") · silence skipped: \(Timecode.format(seconds: saved)) in this book")
        case let .stopped(book, reason): say(TerminalText.visible("stopped \(book) (position saved): \(reason)"))
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
        }
    }

    /// Just after a book started, a sleep timer can only be a default the listener set (the
    /// book's own, `book settings --sleep-timer`, or `set sleep`), armed as it started: said,
    /// with how to cancel it.
    func sayDefaultSleepTimer() {
        if let sleep = player.status?.sleep { say("sleep timer: \(sleep) (your default; 'sleep off' cancels it)") }
    }

    // MARK: Output

    // The terminal's edge: a socket client gets the exact text in its JSON reply (and shows it
    // through `TerminalText` itself); a terminal gets control characters from files shown visibly.
    func say(_ text: String) { write(text, exact: false) }

    /// JSON as it is: its escaping already keeps it harmless, and its strings must stay exact.
    func sayExactly(_ text: String) { write(text, exact: true) }

    private func write(_ text: String, exact: Bool) {
        if let capture { capture.output += OutputCapture.lines(text); return }
        let text = exact ? text : TerminalText.lines(text)
        if showOnScreen(text) { return }
        if userIsAtPrompt { notices.post(text) } else { StandardStream.output.write(text + "\n") }
    }

    func complain(_ text: String) {
        if let capture { capture.errors += OutputCapture.lines(text); return }
        let text = TerminalText.lines(text)
        if showOnScreen(text) { return }
        if userIsAtPrompt { notices.post(text) } else { StandardStream.error.write(text + "\n") }
    }

}
