public import Library
public import PlayerCore

/// What the controller reacts to on its owner's task besides commands: the engine's events and
/// the sleep timer's wake-up. The controller posts them through `wake`; the owner hands them
/// back to `handle(_:)` on the task that sends commands, so nothing in here is shared.
public enum PlayerInput: Sendable {
    /// `generation` says which engine sent it: events of a book no longer played are dropped.
    case engine(PlaybackEvent, generation: Int)
    /// The sleep timer's countdown is due (`generation` tells a stale wake-up).
    case sleepTimerDue(generation: Int)
    /// The sleep timer's countdown has a minute left (`generation` as for `sleepTimerDue`).
    case sleepTimerWarning(generation: Int)
    /// Another device's journal in the sync folder changed.
    case syncFolderChanged
    /// An exchange with the sync folder ended.
    case syncExchanged(Result<SyncExchangeReport, SyncProblem>)
    /// A book's loudness measured in the background (`BookLoudness`).
    case loudnessMeasured(bookId: Int64, Result<LoudnessReading, LoudnessFailure>)
}
