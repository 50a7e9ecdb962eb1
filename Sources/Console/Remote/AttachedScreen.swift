import Foundation
import Library
import Player
import StandardStreams

/// The screens of a player that runs elsewhere: `now` or `library` typed in a client REPL, or
/// `abplayer now` / `abplayer library` while a daemon or another REPL plays the library. The
/// player screen shows what comes from the player's control socket (`subscribe`: the status at
/// once, then every change and position); the library screen reads the library itself (SQLite
/// lets a reader beside the player's writer), marks the book playing from those events, and
/// reads the library again when they say it changed (`library`: an import, a rename...). Each
/// key sends the command line the player's own screen runs for it (`PlayerScreenKeys`; Enter on
/// a book, `play #ID`), as `cmus-remote` and `mpc` reach a running cmus or MPD. Nothing here
/// decides anything about playback. Used from the client REPL's task; a thread of its own reads
/// the events (`AttachedEvents`).
final class AttachedScreen {
    enum KeyResult { case stay, close }

    /// What the screen shows.
    enum View {
        case player
        case library(LibraryBrowser)
    }

    private let terminal = RawTerminal()
    private let style: ScreenStyle
    private let commands: ControlClient
    /// The library, read for the library view.
    private let library: LibraryDatabase
    private var view: View
    /// The player's events, read on a thread of their own.
    private let events: AttachedEvents
    private var status: Status?
    private var hasStatus = false
    /// What the last key's command said, or why it failed, on the message line for a few seconds.
    private let message: MessageLine

    /// Attaches to the player at `commands.path`; its states arrive as `.attachedStatus` on
    /// `inputs` (and `.attachedPlayerStopped` when it goes away).
    /// `library`: open on the library view (else the player's).
    init(commands: ControlClient, library: LibraryDatabase, showingLibrary: Bool, style: ScreenStyle,
         inputs: AsyncStream<ConsoleInput>.Continuation) throws {
        self.commands = commands
        self.library = library
        self.style = style
        view = .player
        message = MessageLine(expired: { inputs.yield(.messageExpired) })
        if showingLibrary { view = .library(try Self.browser(library, returnsToPlayer: false)) }
        events = AttachedEvents(path: commands.path, inputs: inputs)
        draw()
    }

    func show(_ newStatus: Status?) {
        status = newStatus
        hasStatus = true
        draw()
    }

    /// The player's library changed its books or shelves: the library view reads it again (the
    /// same two queries), keeping the shelf, the search and the book selected, as the player's
    /// own library screen does after its watch.
    func libraryChanged() {
        guard case let .library(old) = view else { return }
        do {
            var browser = try Self.browser(library, returnsToPlayer: old.returnsToPlayer)
            browser.carryOver(old)
            browser.keepSelectionVisible(height: LibraryScreenLayout.paneHeight(RawTerminal.size))
            view = .library(browser)
        } catch {
            message.show(TerminalText.visible("library: \(error)"))
        }
        draw()
    }

    private static func browser(_ library: LibraryDatabase, returnsToPlayer: Bool) throws -> LibraryBrowser {
        let catalog = try library.catalog.snapshot()
        return LibraryBrowser(shelves: catalog.shelves, books: catalog.books, returnsToPlayer: returnsToPlayer)
    }

    func draw() {
        let size = RawTerminal.size
        if case var .library(browser) = view {
            do {
                try browser.learnLengths(from: library, height: LibraryScreenLayout.paneHeight(size))
            } catch {
                message.show(TerminalText.visible("library: \(error)"))
            }
            view = .library(browser)
            let playing = status.map { status in
                LibraryScreenLayout.Playing(bookId: status.bookId, positionSeconds: status.bookPosition, durationSeconds: status.bookDuration)
            }
            let layout = LibraryScreenLayout(browser: browser, playing: playing, message: message.text)
            terminal.draw(layout.lines(size: size, style: style))
            return
        }
        guard let status else {
            let text = hasStatus ? "nothing is playing — q back ('play BOOK' at the prompt)" : "reaching the player…"
            terminal.draw([TextFit.truncate(text, to: size.columns)])
            return
        }
        var layout = PlayerScreenLayout(status: status, message: message.text)
        layout.keys = PlayerScreenLayout.attachedKeys
        terminal.draw(layout.lines(size: size, style: style))
    }

    /// Runs what `key` means; `.close` for the keys that leave the screen (q, Esc, Ctrl-C) and
    /// when the player is gone.
    func handle(_ key: Key) -> KeyResult {
        message.clear()
        if key == .interrupt { return .close }
        let result: KeyResult
        switch view {
        case .player: result = handlePlayerKey(key)
        case let .library(browser): result = handleLibraryKey(key, browser)
        }
        if result == .stay { draw() }
        return result
    }

    private func handlePlayerKey(_ key: Key) -> KeyResult {
        switch key {
        case .character("q"), .escape: return .close
        case .character("L"):
            do {
                view = .library(try Self.browser(library, returnsToPlayer: true))
            } catch {
                message.show(TerminalText.visible("library: \(error)"))
            }
        case .character("B"), .character("a"):
            message.show("the cover and bookmarks screens show on the player's own terminal; here 'bookmarks' at the prompt")
        default:
            guard let line = PlayerScreenKeys.line(for: key) else { return .stay }
            return send(line)
        }
        return .stay
    }

    private func handleLibraryKey(_ key: Key, _ browser: LibraryBrowser) -> KeyResult {
        var browser = browser
        let action = browser.handle(key, pageHeight: LibraryScreenLayout.paneHeight(RawTerminal.size))
        view = .library(browser)
        switch action {
        case nil: return .stay
        case let .play(bookId):
            // The book loaded carries on where it is (paused: resumes) rather than loading again.
            let result = send(status?.bookId == bookId ? "play" : "play #\(bookId)")
            if result == .stay && !(lastReplyFailed) { view = .player }
            return result
        case .back:
            guard browser.returnsToPlayer else { return .close }
            view = .player
            return .stay
        }
    }

    /// Whether the last command sent failed (its error is on the message line).
    private var lastReplyFailed = false

    /// Sends a command line; what it said goes on the message line. `.close` when the player is gone.
    private func send(_ line: String) -> KeyResult {
        do {
            let reply = try commands.send(line)
            lastReplyFailed = !reply.ok
            if let said = (reply.errors + reply.output).last { message.show(TerminalText.visible(said)) } else { message.clear() }
            return .stay
        } catch {
            return .close
        }
    }

    /// Back to the prompt: the events' connection ended, the terminal as it was.
    func close() {
        events.close()
        terminal.restore()
    }
}
