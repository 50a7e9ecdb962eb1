public import Player
public import Listening
public import Library

/// Something the player service's one task reacts to (or a client REPL's, `RemoteRepl`): a line
/// typed (or scripted), the end of the input, the player's engine events and timers, a socket or
/// MPRIS request, the library watch, or a termination signal.
public enum ConsoleInput: Sendable {
    case line(String)
    case endOfInput
    /// An engine event or a timer of the player controller, handed back to it on this task.
    case player(PlayerInput)
    case terminate
    /// A key pressed while a full screen shows.
    case key(Key)
    /// The terminal's window changed size (SIGWINCH).
    case resize
    /// A full screen's message has had its time (`MessageLine`): the screen is drawn again without it.
    case messageExpired
    /// A command line from a control socket client.
    case remote(RemoteRequest)
    /// A typed command from outside the terminal (MPRIS).
    case request(PlayerRequest)
    /// What the library watch did, one change per book (`LibraryWatch`).
    case libraryChanged([LibraryChange])
    /// A pass of the library watch failed (it goes on watching).
    case libraryWatchFailed(String)
    /// Files the library watch could not read (said as import says them).
    case libraryWatchSkipped([SkippedFile])
    /// A warning a plugin logged while the player runs (a file cut short, a bad chapter), one
    /// line naming its file, said once per run (`PluginWarnings`).
    case pluginWarning(String)
    /// An event hook refused as the player starts, or one that failed (said once a run), one
    /// `abplayer:` line (`EventHooks`).
    case hookProblem(String)
    /// An import added books: their folders are watched too.
    case libraryImported
    /// A `chapters detect` running beside the REPL ended.
    case chaptersDetected(ChapterDetectionRequest, Result<ChapterDetector.Result, any Error>)
    /// The state of the player a client REPL's screen is attached to, from its control socket
    /// (`AttachedScreen`); nil when it has no book loaded.
    case attachedStatus(Status?)
    /// That player's library changed its books or shelves (an import, a rename, a removal...):
    /// a library screen attached to it reads the library again.
    case attachedLibraryChanged
    /// That player closed the connection: it stopped.
    case attachedPlayerStopped
    /// What that player announces (its notices, what other clients did), for a client REPL in
    /// plain mode to say.
    case attachedAnnouncement(Announcement)
}
