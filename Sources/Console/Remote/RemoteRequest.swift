public import Player

/// A command line from a control socket client, run on the service's task exactly like a typed
/// line but in the client's own shelf; what the commands say comes back in the reply instead of
/// on the terminal. Or one command as words (a JSON request), answered with typed outcomes too.
public struct RemoteRequest: Sendable {
    public enum Content: Sendable, Equatable {
        case line(String)
        /// A JSON request's command and arguments, as words, and its id.
        case words([String], id: RequestID?)
    }

    public let content: Content
    /// The client's current shelf (`cd`, `ls`, relative names).
    public let shelf: ShelfLocation
    /// The client's process id (nil: not known), so that what its request does is not announced
    /// back to that same process (`Announcement.requester`).
    public let requester: Int32?
    public let reply: @Sendable (RemoteReply) -> Void

    public init(_ content: Content, shelf: ShelfLocation, requester: Int32? = nil, reply: @escaping @Sendable (RemoteReply) -> Void) {
        self.content = content
        self.shelf = shelf
        self.requester = requester
        self.reply = reply
    }

    public init(line: String, shelf: ShelfLocation, reply: @escaping @Sendable (RemoteReply) -> Void) {
        self.init(.line(line), shelf: shelf, reply: reply)
    }
}

/// What running a remote line did.
public struct RemoteReply: Codable, Equatable, Sendable {
    /// True when every command of the line succeeded.
    public var ok: Bool
    /// What the commands said, line by line (what a terminal would show on standard output).
    public var output: [String]
    /// What went wrong, one line each (standard error on a terminal).
    public var errors: [String]
    /// True when the line asked the player to quit.
    public var quit: Bool
    /// The status asked for with `status --json` (or `status` in a JSON request), as an object
    /// rather than a line of `output`.
    public var status: Status?
    /// A JSON request's: what its command did, as data; absent in a line's reply.
    public var outcomes: [TypedOutcome]?
    /// A JSON request's id, as it came.
    public var id: RequestID?

    public init(ok: Bool, output: [String], errors: [String], quit: Bool = false, status: Status? = nil,
                outcomes: [TypedOutcome]? = nil, id: RequestID? = nil) {
        self.ok = ok
        self.output = output
        self.errors = errors
        self.quit = quit
        self.status = status
        self.outcomes = outcomes
        self.id = id
    }
}

/// Collects what the console says while it runs a remote line.
final class OutputCapture {
    var output: [String] = []
    var errors: [String] = []
    /// The first `status --json` of the line.
    var status: Status?
    /// For a JSON request: what each command did, and its status always as an object.
    let typed: Bool
    var outcomes: [TypedOutcome] = []
    /// The socket client's process whose line this is (`RemoteRequest.requester`).
    let requester: Int32?

    init(typed: Bool = false, requester: Int32? = nil) {
        self.typed = typed
        self.requester = requester
    }

    /// A reply holds one line per entry, so text of several lines (`status`) is split.
    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
}
