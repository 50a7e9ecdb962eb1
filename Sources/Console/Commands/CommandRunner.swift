import Foundation
import Library
import Player
import PlayerCore
import Listening
import StandardStreams

/// The command grammar, run: a line typed at the prompt, piped, given with `-c`, sent over the
/// control socket or made from a key on a screen is parsed into `Command`s; the player's run
/// through the player controller, the library's through `libraryCommands`, and what they did is
/// said to `output`. One runner serves every face of a player (the service owns it), on the
/// service's task.
public final class CommandRunner {
    let library: LibraryDatabase
    /// For the chapter detector; playback goes through `player`.
    let decoders: any DecoderOpener
    let player: PlayerController
    /// Where what the commands say goes, shared with `libraryCommands`.
    let lines: LineOutput
    /// The full screens of the terminal face, when one runs in this process; without it `now`,
    /// `library` and `art` answer with plain lines.
    public weak var screens: (any ScreenFace)?
    /// The shelf `ls` shows, "" at the top: the terminal's (shared with the line editor for the
    /// prompt and completion). A socket client's line runs in that client's own shelf instead.
    public let location = ShelfLocation()
    /// For what finishes later on the service's task (a chapter detection, the watch after an import).
    let inputs: AsyncStream<ConsoleInput>.Continuation
    /// Whether the lines are typed at a terminal: a long `chapters detect` then runs beside them,
    /// and `help` fits its width.
    public var isInteractive = false
    /// Whether the lines come one at a time from the REPL's own input (a terminal or a pipe), so
    /// that a question can be answered by the next one; a `-c` script cannot answer.
    public var answersFollow = false
    /// Whether a book's place is kept when it stops (said when `stop` stops it): not for the files
    /// `abplayer play` plays, a library in memory that ends with that command.
    public var keepsPlaces = true
    /// `chapters detect` typed at a terminal: running beside the REPL, or asking whether to store.
    var chapterDetection = ChapterDetectionState()
    /// The terminal face's plain mode, when it has one (`Console`): `set plain` changes it, and
    /// while it is on the player's announcements are said and `library` takes a number.
    public var plainMode: PlainMode?
    /// What the commands did while `recordingOutcomes` runs (nil: not recording).
    var recordedOutcomes: [PlayerOutcome]?
    /// The books `library` numbered in plain mode, until the next line answers with a number.
    var libraryChoice: [Int64]?
    /// The library's commands (`ls`, `cd`, `shelf`, `book`, `import`...), and which book or shelf
    /// a name means from the shelf the line works in.
    private(set) lazy var libraryCommands = LibraryCommands(
        library: library, decoders: decoders, player: player, lines: lines, terminalShelf: location, inputs: inputs,
        show: { [unowned self] outcome in show(outcome) }, isPlain: { [unowned self] in announcesEvents })

    init(library: LibraryDatabase, decoders: any DecoderOpener, player: PlayerController, output: any CommandOutput,
         inputs: AsyncStream<ConsoleInput>.Continuation) {
        self.library = library
        self.decoders = decoders
        self.player = player
        lines = LineOutput(output)
        self.inputs = inputs
    }

    /// Whether what a screen would show is said as it happens (`PlayerNotice.isAnnouncement`).
    public var announcesEvents: Bool { plainMode?.isOn ?? false }

    /// Where what the commands say goes when no remote line is running.
    public var output: any CommandOutput {
        get { lines.output }
        set { lines.output = newValue }
    }

    /// Where what is said goes while a remote line runs.
    var capture: OutputCapture? {
        get { lines.capture }
        set { lines.capture = newValue }
    }

    /// The shelf the line being run works in: the terminal's, or a socket client's.
    var here: ShelfLocation {
        get { libraryCommands.here }
        set { libraryCommands.here = newValue }
    }

    /// Runs `body` with what is said going into `capture`, in `shelf` (a socket client's own).
    func capturing<T>(_ capture: OutputCapture, in shelf: ShelfLocation, _ body: () -> T) -> T {
        self.capture = capture
        here = shelf
        defer {
            here = location
            self.capture = nil
        }
        return body()
    }

    public enum Outcome: Equatable, Sendable {
        case succeeded, failed, quit
    }

    /// Runs every command of a line; failed when any failed (the others still run). An empty
    /// line toggles play/pause when typed at the prompt (`typed`); in a script it does nothing.
    public func execute(line: String, typed: Bool = false) -> Outcome {
        if let answered = answer(line) ?? answerLibraryChoice(line) { return answered }
        let commands: [[String]]
        do {
            // At the prompt a bookmark's note is the rest of the line as typed; in a script or a
            // socket line a `;` ends it, as it ends any command.
            commands = try Tokenizer.commands(in: line, notes: typed ? .restOfLine : .command)
        } catch {
            complain(error.description)
            return .failed
        }
        if commands.isEmpty {
            // Said, as every state change a listener causes: a stray Enter must not pause in silence.
            if typed, player.loadedBook != nil, let outcome = try? player.perform(.toggle) { show(outcome) }
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

    /// Runs one command given as words (a JSON request's): no tokenizer, no quoting.
    func execute(words: [String]) -> Outcome {
        let command: Command
        do {
            command = try Command(words: words)
        } catch {
            complain(error.description)
            return .failed
        }
        if command == .quit { return .quit }
        do {
            try execute(command)
            return .succeeded
        } catch {
            complain(TerminalText.visible("\(words[0]): \(error)"))
            return .failed
        }
    }

    func execute(_ command: Command) throws {
        switch command {
        case let .help(page): help(page)
        case .list: try libraryCommands.list()
        case let .changeShelf(path): try libraryCommands.changeShelf(path)
        case .tree: try libraryCommands.tree()
        case let .find(text): try libraryCommands.find(text)
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
        case let .chapters(reference): try perform(.chapters(bookId: try reference.map { try resolveBook($0).id! }))
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
        case let .skipIntro(seconds): try perform(.skipIntro(seconds: seconds))
        case let .skipOutro(seconds): try perform(.skipOutro(seconds: seconds))
        case let .output(name): try perform(.output(name))
        case let .status(json): try status(json: json)
        case .quit: break
        case let .library(command): try libraryCommands.run(command)
        case let .sleep(sleep): try perform(.sleep(sleep))
        case let .queue(queue): try self.queue(queue)
        case let .playbackMode(mode): try playbackMode(mode)
        case let .screen(command): try show(command)
        case let .sync(request): try perform(.sync(request))
        case let .loudness(line): try loudness(line)
        }
    }

    /// Runs a player command and shows what it did.
    func perform(_ command: PlayerCommand) throws(PlayerError) {
        show(try player.perform(command))
    }

    // MARK: Playback

    /// `play BOOK`, `play ITEM` (of the book loaded) or `play` (resume).
    func play(_ reference: String?) throws {
        guard let reference else { return try perform(.play(bookId: nil)) }
        // "#12" is always book 12 (the screens play books so), even when an item's title holds "#12".
        if !reference.hasPrefix("#"), let loaded = player.loadedBook, let item = ItemReference.index(reference, titles: loaded.itemTitles) {
            return try perform(.playItem(item))
        }
        try perform(.play(bookId: try resolveBook(reference).id!))
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
        case let .add(reference): try perform(.queue(.add(bookId: try resolveBook(reference).id!)))
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
        // A remote client gets the status as an object in its reply (a JSON request always).
        if let capture, json || capture.typed, capture.status == nil {
            capture.status = status
            capture.outcomes.append(TypedOutcome(.status(status)))
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

    /// A help page at the terminal's width, a window at a time where the terminal can page;
    /// at 80 columns where the width is unknown (a script, a pipe, a socket client's reply).
    func help(_ page: HelpPage) {
        let face = capture == nil && isInteractive ? screens : nil
        let lines = page.lines(columns: face == nil ? HelpPage.unknownWidthColumns : RawTerminal.size.columns)
        if let face { face.showPaged(lines) } else { lines.forEach(say) }
    }

    // MARK: Names and output, as the library commands have them

    /// The book `reference` names, from the shelf the line works in (`LibraryCommands.resolveBook`).
    func resolveBook(_ reference: String) throws -> Book {
        try libraryCommands.resolveBook(reference)
    }

    /// The shelf path `argument` names from the shelf the line works in, like `cd`.
    func absoluteShelfPath(_ argument: String) -> String {
        libraryCommands.absoluteShelfPath(argument)
    }

    func say(_ text: String) { lines.say(text) }

    /// JSON as it is: its escaping already keeps it harmless, and its strings must stay exact.
    func sayExactly(_ text: String) { lines.sayExactly(text) }

    func complain(_ text: String) { lines.complain(text) }
}
