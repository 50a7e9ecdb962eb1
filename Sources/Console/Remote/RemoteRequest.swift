public import Player

/// A command line from a control socket client, run on the console's task exactly like a typed
/// line but in the client's own shelf; what the commands say comes back in the reply instead of
/// on the terminal.
public struct RemoteRequest: Sendable {
    public let line: String
    /// The client's current shelf (`cd`, `ls`, relative names).
    public let shelf: ShelfLocation
    public let reply: @Sendable (RemoteReply) -> Void

    public init(line: String, shelf: ShelfLocation, reply: @escaping @Sendable (RemoteReply) -> Void) {
        self.line = line
        self.shelf = shelf
        self.reply = reply
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
    /// The status asked for with `status --json`, as an object rather than a line of `output`.
    public var status: Status?

    public init(ok: Bool, output: [String], errors: [String], quit: Bool = false, status: Status? = nil) {
        self.ok = ok
        self.output = output
        self.errors = errors
        self.quit = quit
        self.status = status
    }
}

/// Collects what the console says while it runs a remote line.
final class OutputCapture {
    var output: [String] = []
    var errors: [String] = []
    /// The first `status --json` of the line.
    var status: Status?

    /// A reply holds one line per entry, so text of several lines (`status`) is split.
    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
}
