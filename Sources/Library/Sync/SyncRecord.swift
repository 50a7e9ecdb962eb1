public import Foundation

/// A library's name in the sync folder: made once per library, never changed, so each library
/// writes only its own journal file there and no two devices ever write the same file.
public struct DeviceID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let text: String

    /// Letters, digits and `-`, 1-64 of them: it names a file in a folder other machines write to.
    public init?(_ text: String) {
        guard (1...64).contains(text.utf8.count),
              text.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) })
        else { return nil }
        self.text = text
    }

    /// A new random id, `XXXX-XXXX-XXXX` (60 random bits in Crockford's base 32: no I, L, O, U).
    public static func random() -> DeviceID {
        let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
        var generator = SystemRandomNumberGenerator()
        let groups = (0..<3).map { _ in String((0..<4).map { _ in alphabet[Int(generator.next() % 32)] }) }
        return DeviceID(groups.joined(separator: "-"))!
    }

    public var description: String { text }
    public static func < (lhs: DeviceID, rhs: DeviceID) -> Bool { lhs.text < rhs.text }
}

/// A book as every library can recognise it without sharing paths or database ids: its items'
/// content fingerprints in play order, then its title, author and length for a library whose files
/// differ (another rip of the same book).
public struct SyncBookIdentity: Hashable, Sendable {
    public var items: [String]
    public var title: String
    public var author: String?
    /// The whole book's length; nil when a file's length is unknown.
    public var seconds: Double?

    public init(items: [String], title: String, author: String?, seconds: Double?) {
        self.items = items
        self.title = title
        self.author = author
        self.seconds = seconds
    }
}

/// A bookmark as it travels: its own id (a UUID, the same on every device), so an edit or a
/// removal on one device finds it on the others.
public struct SyncBookmark: Equatable, Sendable {
    public var id: String
    /// The item's fingerprint.
    public var item: String
    public var frame: Int64
    public var kind: BookmarkKind
    public var note: String?
    public var createdAt: Date

    public init(id: String, item: String, frame: Int64, kind: BookmarkKind, note: String?, createdAt: Date) {
        self.id = id
        self.item = item
        self.frame = frame
        self.kind = kind
        self.note = note
        self.createdAt = createdAt
    }
}

/// What happened to a book on a device.
public enum SyncChange: Equatable, Sendable {
    /// The place heard (listened at the record's time): item by fingerprint, frame at its rate.
    case position(item: String, frame: Int64)
    case finished(Bool)
    /// A bookmark made or edited: the newest record of an id is what it says.
    indirect case bookmark(SyncBookmark)
    /// A removal wins over every edit of that id, earlier or later (an id is never made again).
    case bookmarkRemoved(id: String)
    /// The book's settings, whole: the newest record of a book wins them all.
    indirect case settings(SyncBookSettings)
    /// The book's whole user-chapter list, in item and frame order (empty: the files' chapters
    /// again): the newest list wins whole.
    indirect case chapters([SyncChapter])
}

/// One entry of a journal: a change to a book, when it happened by the writing device's clock.
public struct SyncRecord: Equatable, Sendable {
    public var book: SyncBookIdentity
    public var at: Date
    public var change: SyncChange

    public init(book: SyncBookIdentity, at: Date, change: SyncChange) {
        self.book = book
        self.at = at
        self.change = change
    }
}

/// A record as read from another device's journal: with the device that wrote it.
public struct DeviceRecord: Equatable, Sendable {
    public var device: DeviceID
    public var record: SyncRecord

    public init(device: DeviceID, record: SyncRecord) {
        self.device = device
        self.record = record
    }
}
