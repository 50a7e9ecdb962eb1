import Synchronization

/// The shelf the REPL is in ("" at the top). Read by the line editor's thread for the prompt
/// and completion while the REPL's task changes it, hence the lock.
public final class ShelfLocation: Sendable {
    private let path = Mutex("")

    public init() {}

    public var current: String {
        get { path.withLock { $0 } }
        set { path.withLock { $0 = newValue } }
    }

    /// "/" or "/Fiction/Russian".
    public var display: String { "/" + current }
}
