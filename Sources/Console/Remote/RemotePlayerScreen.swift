import Foundation
import Player
import StandardStreams

/// The player screen of a player that runs elsewhere: `now` typed in a client REPL, or
/// `abplayer now` while a daemon or another REPL plays the library. What it shows comes from the
/// player's control socket (`subscribe`: the status at once, then every change and position);
/// each key sends the command line the player's own screen runs for it (`PlayerScreenKeys`), as
/// `cmus-remote` and `mpc` reach a running cmus or MPD. Nothing here decides anything about
/// playback. Used from the client REPL's task; a thread of its own reads the events.
final class RemotePlayerScreen {
    enum KeyResult { case stay, close }

    private let terminal = RawTerminal()
    private let style: ScreenStyle
    private let commands: ControlClient
    /// The events' connection while its reader thread runs, to end that thread's wait when the
    /// screen closes; nil once it ended. Behind a lock so that the descriptor is never shut down
    /// after the thread closed it (it may be another file's by then).
    private let events: Locked<Int32?>
    /// Set at close: what the reader thread still gets is not for this screen.
    private let isClosed: Locked<Bool>
    private var status: Status?
    private var hasStatus = false
    /// What the last key's command said, or why it failed, on the message line.
    private var message: String?

    /// Attaches to the player at `commands.path`; its states arrive as `.attachedStatus` on
    /// `inputs` (and `.attachedPlayerStopped` when it goes away).
    init(commands: ControlClient, style: ScreenStyle, inputs: AsyncStream<ConsoleInput>.Continuation) {
        self.commands = commands
        self.style = style
        let events = Locked<Int32?>(nil)
        let isClosed = Locked(false)
        self.events = events
        self.isClosed = isClosed
        let path = commands.path
        Thread.detachNewThread {
            let told: @Sendable (ConsoleInput) -> Void = { input in
                if !isClosed.withLock({ $0 }) { inputs.yield(input) }
            }
            guard let client = try? ControlClient(path: path) else { return told(.attachedPlayerStopped) }
            events.withLock { $0 = client.descriptor }
            defer { events.withLock { $0 = nil } } // before the client (and its descriptor) goes
            guard (try? client.write("subscribe")) != nil, client.readLine() != nil else { return told(.attachedPlayerStopped) }
            while let line = client.readLine() {
                guard let event = try? JSONDecoder().decode(AttachedEvent.self, from: Data(line.utf8)), event.event != "engine" else {
                    continue
                }
                told(.attachedStatus(event.status))
            }
            told(.attachedPlayerStopped)
        }
        draw()
    }

    /// One line of `subscribe`: a status change, a position or a seek carries the status (null
    /// when no book is loaded); engine events are not needed here.
    private struct AttachedEvent: Decodable {
        let event: String
        let status: Status?
    }

    func show(_ newStatus: Status?) {
        status = newStatus
        hasStatus = true
        draw()
    }

    func draw() {
        let size = RawTerminal.size
        guard let status else {
            let text = hasStatus ? "nothing is playing — q back ('play BOOK' at the prompt)" : "reaching the player…"
            terminal.draw([TextFit.truncate(text, to: size.columns)])
            return
        }
        var layout = PlayerScreenLayout(status: status, message: message)
        layout.keys = PlayerScreenLayout.attachedKeys
        terminal.draw(layout.lines(size: size, style: style))
    }

    /// Runs what `key` means; `.close` for the keys that leave the screen (q, Esc, Ctrl-C) and
    /// when the player is gone.
    func handle(_ key: Key) -> KeyResult {
        message = nil
        switch key {
        case .character("q"), .escape, .interrupt: return .close
        case .character("B"), .character("a"), .character("L"):
            message = "the cover, bookmarks and library screens show on the player's own terminal; here 'bookmarks' and 'ls' at the prompt"
        default:
            guard let line = PlayerScreenKeys.line(for: key) else { return .stay }
            do {
                let reply = try commands.send(line)
                message = (reply.errors + reply.output).last.map(TerminalText.visible)
            } catch {
                return .close
            }
        }
        draw()
        return .stay
    }

    /// Back to the prompt: the events' connection ended, the terminal as it was.
    func close() {
        isClosed.withLock { $0 = true }
        events.withLock { descriptor in
            if let descriptor { shutdown(descriptor, Int32(SHUT_RDWR)) }
        }
        terminal.restore()
    }
}
