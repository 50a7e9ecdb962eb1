/// Something that happened to the listening that the rest of the desktop may act on (the event
/// hooks run on these): a book started, paused or resumed, a new chapter, a bookmark made, the
/// sleep timer stopping playback, the end of the book, the output lost, a sync exchange that
/// changed something here. With the player's state as it happened.
public struct ListeningEvent: Sendable, Equatable {
    /// What happened. The raw value is the event's stable name (a hook's file name).
    public enum Kind: String, CaseIterable, Sendable {
        /// A book loaded began playing (also the queue's next, and a finished one played again).
        case started
        /// Playing paused with the place kept: `pause`, a toggle, the sleep timer (after its `sleep`).
        case paused
        /// Playing again after a pause.
        case resumed
        /// The place moved into another chapter, by playing or by a jump.
        case chapter
        /// The listener made a bookmark (`bookmark`).
        case bookmark
        /// The sleep timer faded out and paused (at its time, the end of a chapter or item).
        case sleep
        /// The book played to its end.
        case finished
        /// The output went away while playing (a sound server stopped).
        case outputLost = "output-lost"
        /// An exchange with the sync folder changed something here (one event for all it did),
        /// or another device's place was offered or taken.
        case synced
    }

    public let kind: Kind
    /// The player's state as it happened; nil when no book is loaded (a sync exchange then).
    public let status: Status?
    /// The file of the item playing; nil when no book is loaded.
    public let file: String?
    /// The bookmark made (`bookmark` only).
    public let bookmark: BookmarkPlace?
    /// What the output said (`output-lost`), what the exchange did (`synced`); nil for the others.
    public let message: String?

    public init(_ kind: Kind, status: Status?, file: String?, bookmark: BookmarkPlace? = nil, message: String? = nil) {
        self.kind = kind
        self.status = status
        self.file = file
        self.bookmark = bookmark
        self.message = message
    }
}
