import Foundation
import Player

/// The events of the player an attached screen shows (`subscribe` on its control socket), read
/// on a thread of their own and handed to the client REPL's task: `.attachedStatus` for each
/// status, `.attachedLibraryChanged` when the library's books or shelves changed,
/// `.attachedAnnouncement` for what a plain-mode REPL says as it happens, and
/// `.attachedPlayerStopped` when the connection ends. Nothing is handed on once
/// closed, and closing ends the thread's connection however far it got.
final class AttachedEvents: Sendable {
    /// The connection while the thread reads it, to end that thread's wait when the screen
    /// closes; nil before it connected and once it ended. Behind a lock so that the descriptor is
    /// never shut down after the thread closed it (it may be another file's by then).
    private let connection = Locked<Int32?>(nil)
    /// Set at close: what the thread still gets is not for the screen.
    private let isClosed = Locked(false)
    /// Signalled once the player answered `subscribe` (or the connection failed): from then on
    /// nothing it announces is missed.
    private let subscribed = DispatchSemaphore(value: 0)

    /// Subscribes to the player at `path` on a thread of its own.
    init(path: String, inputs: AsyncStream<ConsoleInput>.Continuation) {
        let connection = connection, isClosed = isClosed, subscribed = subscribed
        Thread.detachNewThread {
            defer { subscribed.signal() } // a connection that failed or ended early: waited for no longer
            let told: @Sendable (ConsoleInput) -> Void = { input in
                if !isClosed.withLock({ $0 }) { inputs.yield(input) }
            }
            guard let client = try? ControlClient(path: path) else { return told(.attachedPlayerStopped) }
            // Closed while connecting: `close()` found no connection to end, so this one must not
            // subscribe (it would stay subscribed for the client's life). Checked under the
            // connection's lock, which `close()` takes after setting `isClosed`: either it is seen
            // closed here, or `close()` finds the connection and shuts it down.
            let attached = connection.withLock { descriptor in
                guard !isClosed.withLock({ $0 }) else { return false }
                descriptor = client.descriptor
                return true
            }
            guard attached else { return } // the client goes, and closes its connection
            defer { connection.withLock { $0 = nil } } // before the client (and its descriptor) goes
            guard (try? client.write("subscribe")) != nil, client.readLine() != nil else { return told(.attachedPlayerStopped) }
            subscribed.signal()
            while let line = client.readLine() {
                guard let event = try? JSONDecoder().decode(AttachedEvent.self, from: Data(line.utf8)) else { continue }
                switch event.event {
                case "changed", "position", "seeked": told(.attachedStatus(event.status))
                case "library": told(.attachedLibraryChanged)
                case "announcement": told(.attachedAnnouncement(Announcement(lines: event.lines ?? [], isProblem: event.problem ?? false)))
                default: continue // engine events are not needed here
                }
            }
            told(.attachedPlayerStopped)
        }
    }

    /// One line of `subscribe` (`RemoteEventJSON`): a status change, a position or a seek carries
    /// the status (null when no book is loaded); `library` nothing.
    private struct AttachedEvent: Decodable {
        let event: String
        let status: Status?
        /// An announcement's.
        let lines: [String]?
        let problem: Bool?
    }

    /// Blocks until the player answered `subscribe`, the connection failed, or `seconds` passed.
    func waitUntilSubscribed(within seconds: Double) {
        if subscribed.wait(timeout: .now() + seconds) == .success { subscribed.signal() }
    }

    /// Ends the connection (the thread's wait with it); nothing more is handed on.
    func close() {
        isClosed.withLock { $0 = true }
        connection.withLock { descriptor in
            if let descriptor { shutdown(descriptor, Int32(SHUT_RDWR)) }
        }
    }
}
