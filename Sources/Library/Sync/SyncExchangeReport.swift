import Foundation

/// What one exchange with the sync folder did.
public struct SyncExchangeReport: Sendable {
    /// A book whose place was taken from another device, and where it was before (an undo point
    /// was left there).
    public struct Move: Sendable, Equatable {
        public var bookId: Int64
        public var title: String
        public var claim: PositionClaim
        /// What the device calls itself, when its journal says.
        public var deviceName: String?
        /// The place as seconds into the whole book (nil when an item's length is unknown).
        public var seconds: Double?
        /// The book had a place here, kept as a beforeSyncJump bookmark.
        public var leftUndoPoint = false
    }

    /// Books not playing whose place another device's later listening moved.
    public var moved: [Move] = []
    /// The playing book's place on another device, later than here: never moved under the
    /// listener; the player offers it (`sync jump`).
    public var waiting: Move?
    public var bookmarksAdded = 0
    public var bookmarksChanged = 0
    public var bookmarksRemoved = 0
    public var finishedChanged = 0
    /// Where the other devices are in each book they have a place in, newest listening first
    /// (`status` shows the book loaded's, `books` every book's).
    public var elsewhere = SyncElsewhere()
    /// Books whose settings (all but the volume) were taken from another device.
    public var settingsChanged = 0
    /// Books whose user chapters were taken from another device (an empty list among them).
    public var chaptersChanged = 0
    /// Records this library appended to its own journal.
    public var written = 0
    /// One line for each journal that could not be read whole, or whose records could not be applied.
    public var problems: [String] = []
    /// The device this library became in this exchange, because another copy of it wrote its
    /// journal (the exchange was made as the new device).
    public var newDevice: DeviceID?
    /// Other devices' records that cannot be true here, noted while applying (`problems` says them).
    var damaged = SyncDamagedRecords()
}
