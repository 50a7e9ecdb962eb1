import Foundation
public import Library
import Player
import StandardStreams

/// The REPL of a second `abplayer` on a library whose player already runs: every line goes
/// through the control socket and the answers are printed as the REPL prints them; `now` shows
/// the player screen attached to it, `library` the library screen (`AttachedScreen`). It never opens an engine or writes a
/// position.
public enum RemoteRepl {
    /// Runs `source`'s lines against the player behind `client` until the input ends, `quit`
    /// (which leaves the player running) or the player stops. Returns whether every line
    /// succeeded.
    /// `greeting` is said first, once what the player announces is heard (plain mode).
    public static func run(_ source: ReplInput, client: ControlClient, library: LibraryDatabase, firstLine: String? = nil,
                           greeting: String? = nil) async -> Bool {
        let (inputs, continuation) = AsyncStream.makeStream(of: ConsoleInput.self)
        let lineDone = DispatchSemaphore(value: 0)
        let keyMode = KeyMode()
        var style = ScreenStyle(environment: ProcessInfo.processInfo.environment,
                                isTerminal: source.isTerminal && isatty(STDOUT_FILENO) == 1)
        if case let .terminal(_, _, plainMode) = source { style = plainMode.restricting(style) }
        let resize = ScreenHost()
        // Plain mode at a terminal: what the player says by itself (a new chapter, the sleep
        // timer's last minute, the end, the output lost) and what other clients did to it (a
        // media key's pause) are said here as they happen, as on the player's own terminal.
        let announcements = source.isTerminal && style.mode == .plain ? AttachedEvents(path: client.path, inputs: continuation) : nil
        defer { announcements?.close() }
        // What the player announces after the greeting is said: a listener who acts on it misses nothing.
        announcements?.waitUntilSubscribed(within: 10)
        if let greeting { printOutput(greeting) }
        // The prompt after the greeting.
        switch source {
        case let .terminal(completer, historyPath, plainMode):
            TerminalReader(completer: completer, historyPath: historyPath, notices: Notices(), keyMode: keyMode,
                           lineDone: lineDone, location: ShelfLocation(), plainMode: plainMode).start(into: continuation, firstLine: firstLine)
        case let .lines(lines):
            lines.feed(into: continuation, firstLine: firstLine)
        }
        var screen: AttachedScreen?
        var pager: Pager?
        var succeeded = true
        loop: for await input in inputs {
            switch input {
            case let .line(line):
                defer { lineDone.signal() }
                switch check(line, typed: source.isTerminal) {
                case .quit: break loop
                case .skip: continue
                case let .refuse(reason):
                    printError(reason)
                    succeeded = false
                case let .screen(showingLibrary) where style.mode != .plain:
                    do {
                        screen = try AttachedScreen(commands: client, library: library, showingLibrary: showingLibrary,
                                                    style: style, inputs: continuation)
                    } catch {
                        printError(TerminalText.visible("library: \(error)"))
                        succeeded = false
                        continue
                    }
                    // Keys from here on (the reader switches after this line is done).
                    resize.watchResize { continuation.yield(.resize) }
                    keyMode.isOn = true
                case .clear:
                    if style.mode != .plain { RawTerminal.clear() }
                case let .help(page):
                    // This terminal's width, and paged here when taller than it.
                    let lines = page.lines(columns: style.mode == .plain ? HelpPage.unknownWidthColumns : RawTerminal.size.columns)
                    if style.mode != .plain, Pager.needsPaging(lines, rows: RawTerminal.size.rows) {
                        pager = Pager(lines: lines, style: style)
                        keyMode.isOn = true
                    } else {
                        lines.forEach(printOutput)
                    }
                case .screen(showingLibrary: true):
                    // No screen here (a pipe, TERM=dumb): the books, as the player's own `library` lists them.
                    if send("library", to: client, succeeded: &succeeded) == .playerGone { return false }
                case .screen(showingLibrary: false):
                    // No screen here (a pipe, TERM=dumb): one plain line, as the player's own `now` says.
                    if send("status --json", to: client, succeeded: &succeeded, plain: true) == .playerGone { return false }
                case let .send(text):
                    switch send(text, to: client, succeeded: &succeeded) {
                    case .answered: break
                    case .quit: break loop
                    case .playerGone: return false
                    }
                }
            case let .key(key):
                defer { lineDone.signal() }
                if let paging = pager {
                    if !paging.handle(key) {
                        paging.close()
                        pager = nil
                        keyMode.isOn = false
                    }
                } else if let shown = screen, shown.handle(key) == .close {
                    shown.close()
                    screen = nil
                    keyMode.isOn = false
                }
            case .resize, .messageExpired: screen?.draw()
            case let .attachedStatus(status): screen?.show(status)
            case .attachedLibraryChanged: screen?.libraryChanged()
            case .attachedPlayerStopped:
                guard screen != nil || announcements != nil else { continue }
                screen?.close()
                printError("abplayer: the player stopped")
                return false
            case let .attachedAnnouncement(announcement):
                for line in announcement.lines {
                    if announcement.isProblem { printError(TerminalText.lines(line)) } else { printOutput(TerminalText.lines(line)) }
                }
            case .endOfInput, .terminate: break loop
            case .player, .remote, .request, .libraryChanged, .libraryWatchFailed, .libraryWatchSkipped, .pluginWarning, .hookProblem, .libraryImported, .chaptersDetected: continue
            }
        }
        pager?.close()
        screen?.close()
        return succeeded
    }

    enum Sent { case answered, quit, playerGone }

    /// Sends a line and prints the reply as the REPL would (`plain`: its status as the plain
    /// line of the player screen).
    private static func send(_ text: String, to client: ControlClient, succeeded: inout Bool, plain: Bool = false) -> Sent {
        do {
            let reply = try client.send(text)
            // The reply holds the exact text; this terminal gets it made visible, the status
            // object (JSON) as it is.
            for line in reply.output { printOutput(TerminalText.lines(line)) }
            if let status = reply.status {
                printOutput(plain ? TerminalText.visible(PlayerScreenLayout(status: status).plainLine) : status.json)
            }
            for line in reply.errors { printError(TerminalText.lines(line)) }
            if !reply.ok { succeeded = false }
            return reply.quit ? .quit : .answered
        } catch {
            printError(TerminalText.visible("abplayer: \(error)"))
            succeeded = false
            return .playerGone
        }
    }

    enum Check: Equatable {
        case send(String), skip, quit, refuse(String)
        /// `now` or `library`: the player's screen or the library's, attached to the player.
        case screen(showingLibrary: Bool)
        /// `clear` alone: this terminal cleared (when it can be).
        case clear
        /// `help ...` alone: the page shown from here (it is the same everywhere), at this
        /// terminal's width and paged here.
        case help(HelpPage)
    }

    /// What to do with a line: `now` alone shows the player's screen here; the other screens
    /// (drawn from the library) cannot show through a socket; `quit` leaves only this client,
    /// and an empty line typed at the prompt toggles like in the REPL.
    static func check(_ line: String, typed: Bool) -> Check {
        guard let commands = try? Tokenizer.commands(in: line, notes: typed ? .restOfLine : .command) else { return .send(line) }
        if commands.isEmpty { return typed ? .send("toggle") : .skip }
        let parsed = commands.map { try? Command(words: $0) }
        if parsed == [.screen(.now)] { return .screen(showingLibrary: false) }
        if parsed == [.screen(.library)] { return .screen(showingLibrary: true) }
        // This terminal's, not the player's: cleared here.
        if parsed == [.screen(.clear)] { return .clear }
        if parsed.count == 1, case let .help(page)? = parsed[0] { return .help(page) }
        for (words, command) in zip(commands, parsed) {
            guard let command else { continue }
            if command == .quit { return .quit }
            if command == .screen(.now) || command == .screen(.library) {
                return .refuse("\(words[0]): on a line of its own, it shows the \(words[0] == "now" ? "player's" : "library") screen here")
            }
            if case .screen = command, command != .screen(.clear) {
                return .refuse("\(words[0]): this screen shows only on the player's own terminal; here 'now' shows the player, 'library' the books")
            }
        }
        // The player reads a socket line as a script's: a note typed here with a `;` in it is
        // sent quoted, so it stays the note it is at this prompt.
        if typed, (try? Tokenizer.commands(in: line, notes: .command)) != commands { return .send(Tokenizer.line(quoting: commands)) }
        return .send(line)
    }

    /// Written at once, not through `print`'s buffer: a script on a pipe reads each answer
    /// before sending its next line.
    static func printOutput(_ text: String) {
        StandardStream.output.write(text + "\n")
    }

    static func printError(_ text: String) {
        StandardStream.error.write(text + "\n")
    }
}
