/// Lines a listener without a screen must hear as they happen, for a plain-mode REPL attached to
/// the player over its control socket (`subscribe`): what the player did by itself (its notices:
/// a new chapter, the sleep timer's last minute, the end of the book, the output lost and back, a
/// sync offer) and what another client did to it (a pause from a media key, a bookmark made from a
/// script). The player's own terminal says these already; a second terminal hears them only so.
public struct Announcement: Sendable, Equatable {
    /// Already made safe for a terminal, one line each.
    public let lines: [String]
    /// Said on standard error (a failure), not standard output.
    public let isProblem: Bool
    /// The control socket client (its process id) whose request made it, if one did: that client
    /// has the lines in its reply already, so its own subscription is not sent them again.
    public let requester: Int32?

    public init(lines: [String], isProblem: Bool = false, requester: Int32? = nil) {
        self.lines = lines
        self.isProblem = isProblem
        self.requester = requester
    }
}
