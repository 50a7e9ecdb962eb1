import Foundation
public import Library
public import PlayerCore

/// Something the REPL's one task reacts to: a line typed (or scripted), the end of the input,
/// an engine event, or a termination signal.
public enum ConsoleInput: Sendable {
    case line(String)
    case endOfInput
    /// `generation` says which engine sent it: events of a book no longer played are dropped.
    case event(PlaybackEvent, generation: Int)
    /// The sleep timer's countdown is due (`generation` tells a stale wake-up).
    case sleepTimerDue(generation: Int)
    case terminate
    /// A key pressed while a full screen shows.
    case key(Key)
    /// The terminal's window changed size (SIGWINCH).
    case resize
    /// A command line from the control socket or MPRIS.
    case remote(RemoteRequest)
}

/// Runs the REPL's commands against the library and the book being played. Everything happens
/// on the task reading `inputs` (lines and engine events alike), so nothing here is shared.
public final class Console {
    let library: LibraryDatabase
    let decoders: any DecoderOpener
    let outputs: Outputs
    /// The output chosen with `--output` or `output`; nil: chosen per book.
    var chosenOutput: String?
    /// The shelf `ls` shows, "" at the top; shared with the line editor for the prompt and
    /// completion.
    public let location: ShelfLocation
    /// Lines for the line editor to print above the prompt (see `Notices`).
    let notices = Notices()
    /// True while the line editor waits at the prompt (a terminal, no typed line running):
    /// whatever is said then (engine messages, the queue's next book, the sleep timer) goes
    /// above the prompt instead of into the middle of what is being typed.
    var userIsAtPrompt = false
    var session: PlayerSession?
    /// Which engine is current: events of an earlier book's engine are dropped.
    private(set) var generation = 0
    let inputs: AsyncStream<ConsoleInput>.Continuation
    /// The full screen showing (`now`, `art`), if any; keys are read while it shows.
    let screens = ScreenHost()
    public let keyMode = KeyMode()
    /// Whether the commands come from a terminal (a full screen can show).
    var isInteractive = false
    /// The state and events for observers outside the terminal (MPRIS, the control socket).
    public let broadcast = ConsoleBroadcast()
    /// The session's jump count when the state was last published: more means it jumped.
    var publishedJumps = 0
    /// Where what is said goes while a remote line runs.
    var capture: OutputCapture?
    /// Cover files written for observers, by book id (nil: the book has none).
    var coverFiles: [Int64: String?] = [:]

    public init(library: LibraryDatabase, decoders: any DecoderOpener, outputs: Outputs, output: String?,
                inputs: AsyncStream<ConsoleInput>.Continuation) {
        self.library = library
        self.decoders = decoders
        self.outputs = outputs
        self.chosenOutput = output
        self.inputs = inputs
        self.location = ShelfLocation()
    }

    public enum Outcome: Equatable, Sendable {
        case succeeded, failed, quit
    }

    /// Runs every command of a line; failed when any failed (the others still run). An empty
    /// line toggles play/pause when typed at the prompt (`typed`); in a script it does nothing.
    public func execute(line: String, typed: Bool = false) -> Outcome {
        let commands: [[String]]
        do {
            commands = try Tokenizer.commands(in: line)
        } catch {
            complain(error.description)
            return .failed
        }
        if commands.isEmpty {
            if typed, let session { session.toggle() }
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
                complain("\(words[0]): \(error)")
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
        case .pause: try playing().pause()
        case .toggle: try playing().toggle()
        case let .skip(forward, seconds): try skip(forward: forward, seconds: seconds)
        case let .seek(target): try seek(target)
        case let .goto(item, seconds): try goto(item: item, seconds: seconds)
        case .nextItem: try nextItem()
        case .previousItem: try previousItem()
        case let .chapter(target): try chapter(target)
        case .undo: try undo()
        case let .bookmark(note): try bookmark(note: note)
        case .bookmarks: try bookmarks()
        case let .speed(speed): try changeSettings { $0.speed = speed }
        case let .volume(percent): try changeSettings { $0.volume = percent / 100 }
        case let .output(name): try switchOutput(to: name)
        case let .status(json): try status(json: json)
        case .quit: break
        case let .library(command): try run(command)
        case let .sleep(sleep): try self.sleep(sleep)
        case let .queue(queue): try self.queue(queue)
        case let .playbackMode(mode): try playbackMode(mode)
        case let .screen(command): try execute(command)
        }
    }

    /// Handles an engine event of the book being played.
    public func handle(_ event: PlaybackEvent, generation: Int) {
        guard generation == self.generation, let session else { return }
        if let message = session.handle(event) { say(message) }
        playbackHandle(event, of: session)
    }

    /// Saves the position and stops playback: at quit, at the end of a script, on a signal.
    public func close() {
        session?.close()
        session = nil
    }

    // MARK: Playback

    func playing() throws(CommandError) -> PlayerSession {
        guard let session else { throw CommandError("nothing is playing: 'play BOOK' first") }
        return session
    }

    func play(_ reference: String?) throws {
        guard let reference else {
            if let session {
                session.play()
            } else {
                try play("#\(try bookListenedToLast().id!)")
            }
            return
        }
        // An item of the book being played?
        if let session, let item = itemIndex(reference, in: session, required: false) {
            session.jump(to: PlaybackPosition(item: item, frame: 0), kind: .beforeItemJump)
            session.play()
            return
        }
        let book = try library.book(matching: reference)
        let media = try library.items(ofBook: book.id!)
        if let missing = media.first(where: \.isMissing) {
            throw CommandError("\(book.title): \(missing.path) is missing; run 'abplayer rescan' (the saved position is kept)")
        }
        let start = try library.startingPoint(ofBook: book.id!)
        let outputName = chosenOutput ?? outputs.automatic(AudioFormat(rate: media[start.item].sampleRate, channels: 2))
        let sinks = try openOutput(outputName)
        close()
        let engine = PlaybackEngine(decoders: decoders, sinks: sinks)
        let startPosition = PlaybackPosition(item: start.item, frame: start.frame)
        let session = PlayerSession(book: book, media: media, settings: try library.settings(ofBook: book.id!),
                                    library: library, engine: engine, outputName: outputName, start: startPosition)
        let title = book.title
        session.recorder.onError = { [weak self] in self?.complain("saving the position of \(title): \($0)") }
        generation += 1
        let generation = generation
        let inputs = inputs
        Task.detached {
            for await event in engine.events { inputs.yield(.event(event, generation: generation)) }
        }
        self.session = session
        preparePlayback(session)
        applyToEngine(speed: session.settings.speed, volume: session.settings.volume)
        session.start(paths: media.map(\.path))
        let seconds = session.timeline.bookSeconds(startPosition)
        say("playing #\(book.id!) \(book.title) from \(Timecode.format(seconds: seconds)) (item \(start.item + 1)/\(media.count)) through \(outputName)")
    }

    /// With nothing loaded, `play` (or Play from a media key) carries on with the book in
    /// progress, else the one played last.
    func bookListenedToLast() throws -> Book {
        guard let last = try library.books(on: .inProgress, limit: 1).first ?? library.books(on: .recentlyPlayed, limit: 1).first else {
            throw CommandError("nothing is playing and no book has been played yet: 'play BOOK'")
        }
        return last
    }

    func openOutput(_ name: String) throws(CommandError) -> any SinkOpener {
        do {
            return try outputs.open(name)
        } catch {
            throw CommandError("\(error)")
        }
    }

    /// Where the book is now, in seconds; an error when an item's length is unknown.
    func bookSeconds(_ session: PlayerSession) throws(CommandError) -> Double {
        guard let seconds = session.timeline.bookSeconds(session.position) else {
            throw CommandError("an earlier item's length is unknown; use 'goto ITEM mm:ss'")
        }
        return seconds
    }

    func skip(forward: Bool, seconds: Double?) throws {
        let session = try playing()
        let amount = seconds ?? session.settings.skipIntervalSeconds
        try move(session, toBookSeconds: try bookSeconds(session) + (forward ? amount : -amount), kind: .beforeSkip)
    }

    func seek(_ target: SeekTarget) throws {
        let session = try playing()
        let seconds: Double
        switch target {
        case let .absolute(value): seconds = value
        case let .relative(value): seconds = try bookSeconds(session) + value
        case let .percent(share):
            guard let total = session.timeline.totalSeconds else {
                throw CommandError("the book's length is unknown, so \(share)% is nowhere; use a time")
            }
            seconds = total * share / 100
        }
        try move(session, toBookSeconds: seconds, kind: .beforeSeek)
    }

    func move(_ session: PlayerSession, toBookSeconds seconds: Double, kind: BookmarkKind) throws(CommandError) {
        guard let target = session.timeline.position(atBookSeconds: seconds) else {
            throw CommandError("\(Timecode.format(seconds: seconds)) is past the end of the book (\(Timecode.format(seconds: session.timeline.totalSeconds)))")
        }
        session.jump(to: target, kind: kind)
    }

    /// The 0-based index of the item `reference` names: its number, or a unique part of its title.
    func itemIndex(_ reference: String, in session: PlayerSession, required: Bool = true) -> Int? {
        ItemReference.index(reference, titles: session.timeline.items.map(\.title))
    }

    func goto(item reference: String, seconds: Double?) throws {
        let session = try playing()
        guard let (item, wanted) = ItemReference.gotoTarget(reference, seconds: seconds, titles: session.timeline.items.map(\.title)) else {
            throw CommandError("no item '\(reference)' in \(session.book.title): use 1-\(session.timeline.items.count) or a unique part of its title")
        }
        let offset = wanted ?? 0
        if let length = session.timeline.items[item].seconds, offset >= length {
            throw CommandError("\(Timecode.format(seconds: offset)) is past the end of item \(item + 1) (\(Timecode.format(seconds: length)))")
        }
        session.jump(to: session.timeline.position(item: item, seconds: offset), kind: .beforeItemJump)
    }

    /// The next item: in shuffle, one not heard yet in this pass (a new pass when all were);
    /// with `repeat book`, the first after the last.
    func nextItem() throws {
        let session = try playing()
        let count = session.timeline.items.count
        let here = session.position.item
        var next = here + 1
        if session.settings.shuffle && count > 1 {
            var unheard = Set(0..<count).subtracting(session.heardThisPass).subtracting([here])
            if unheard.isEmpty {
                session.heardThisPass = [here]
                unheard = Set(0..<count).subtracting([here])
            }
            next = unheard.randomElement()!
        } else if next == count && session.settings.repeatMode == .book {
            next = 0
        }
        guard next < count else { throw CommandError("this is the last item") }
        session.jump(to: PlaybackPosition(item: next, frame: 0), kind: .beforeItemJump)
    }

    /// Like a CD player: back to the start of this item, unless within its first 3 seconds; then
    /// the item before (in shuffle, the one heard before this one).
    func previousItem() throws {
        let session = try playing()
        let here = session.position
        var target = here.item
        if session.timeline.seconds(inItem: here) < 3 {
            if session.settings.shuffle {
                if session.heardThisPass.last == here.item { session.heardThisPass.removeLast() }
                if let before = session.heardThisPass.popLast() { target = before }
            } else if here.item > 0 {
                target = here.item - 1
            }
        }
        session.jump(to: PlaybackPosition(item: target, frame: 0), kind: .beforeItemJump)
    }

    func chapter(_ target: Command.ChapterTarget) throws {
        let session = try playing()
        let chapters = session.timeline.chapters
        guard !chapters.isEmpty else { throw CommandError("\(session.book.title) has no chapters") }
        let current = session.timeline.chapterIndex(at: session.position)
        let index: Int
        switch target {
        case .next:
            index = (current ?? -1) + 1
            guard index < chapters.count else { throw CommandError("this is the last chapter") }
        case .previous:
            // Back to the start of this chapter, unless within its first 3 seconds.
            guard let current else { throw CommandError("this is before the first chapter") }
            let start = chapters[current]
            let into = session.position.item == start.item
                ? Double(session.position.frame - start.startFrame) / Double(session.timeline.items[start.item].sampleRate) : 3
            index = into >= 3 || current == 0 ? current : current - 1
        case let .number(number):
            guard number <= chapters.count else {
                throw CommandError("there is no chapter \(number): use 1-\(chapters.count)")
            }
            index = number - 1
        }
        session.jump(to: PlaybackPosition(item: chapters[index].item, frame: chapters[index].startFrame), kind: .beforeChapterJump)
        say("chapter \(index + 1)/\(chapters.count): \(chapters[index].title)")
    }

    func undo() throws {
        let session = try playing()
        guard let last = try library.popLastJump(bookId: session.book.id!),
              let item = session.mediaIds.firstIndex(of: last.mediaId) else {
            throw CommandError("no jump to undo")
        }
        // Not a jump of its own: undoing twice goes further back, not forth.
        session.jump(to: PlaybackPosition(item: item, frame: last.frame), kind: nil)
        say("back to \(Timecode.format(seconds: session.timeline.bookSeconds(session.position)))")
    }

    func bookmark(note: String?) throws {
        let session = try playing()
        let here = session.position
        try library.addBookmark(bookId: session.book.id!, mediaId: session.mediaIds[here.item], frame: here.frame,
                                kind: .user, note: note)
        say("bookmarked \(Timecode.format(seconds: session.timeline.bookSeconds(here)))\(note.map { ": \($0)" } ?? "")")
    }

    func bookmarks() throws {
        let session = try playing()
        let marks = try library.bookmarks(ofBook: session.book.id!, includeAutomatic: false)
        if marks.isEmpty { say("no bookmarks in \(session.book.title)") }
        for mark in marks {
            guard let item = session.mediaIds.firstIndex(of: mark.mediaId) else { continue }
            let seconds = session.timeline.bookSeconds(PlaybackPosition(item: item, frame: mark.frame))
            say("#\(mark.id!)\t\(Timecode.format(seconds: seconds))\t\(mark.note ?? "")")
        }
    }

    func changeSettings(_ change: (inout BookSettings) -> Void) throws {
        let session = try playing()
        change(&session.settings)
        try library.saveSettings(session.settings)
        applyToEngine(speed: session.settings.speed, volume: session.settings.volume)
        say("speed \(Status.speedText(session.settings.speed)), volume \(Int((session.settings.volume * 100).rounded()))%")
    }

    /// Hands the book's speed and volume (stored as a gain, 1 = 100%) to the engine.
    func applyToEngine(speed: Double, volume: Double) {
        guard let session else { return }
        session.engine.setSpeed(speed)
        session.engine.setVolume(volume * 100)
    }

    func switchOutput(to name: String) throws {
        let sinks = try openOutput(name)
        chosenOutput = name
        if let session {
            session.outputName = name
            session.engine.setOutput(sinks)
        } else {
            say("books will play through \(name)")
        }
    }

    func status(json: Bool) throws {
        var status = Status(session: try playing())
        status.queue = try library.queue().count
        // A remote client gets the status as an object in its reply.
        if json, let capture, capture.status == nil {
            capture.status = status
            return
        }
        say(json ? status.json : status.text)
    }

    // MARK: Output

    func say(_ text: String) {
        if let capture { capture.output += OutputCapture.lines(text); return }
        if showOnScreen(text) { return }
        if userIsAtPrompt { notices.post(text) } else { FileHandle.standardOutput.write(Data((text + "\n").utf8)) }
    }

    func complain(_ text: String) {
        if let capture { capture.errors += OutputCapture.lines(text); return }
        if showOnScreen(text) { return }
        if userIsAtPrompt { notices.post(text) } else { FileHandle.standardError.write(Data((text + "\n").utf8)) }
    }

}
