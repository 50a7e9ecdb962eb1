public import Foundation

/// A book's settings as they travel: what a listener wants the book to sound and behave like on
/// every machine. Not the volume: each machine's speakers and amplifier differ, so a volume set
/// for a laptop's speakers stays on the laptop.
///
/// nil is "no setting of the book's own": each machine's listener default applies there.
public struct SyncBookSettings: Equatable, Sendable {
    public var speed: Double?
    public var skipIntervalSeconds: Double?
    /// The book's own sleep timer, armed when it starts.
    public var sleepTimerSeconds: Double?
    public var skipSilence: SkipSilence?
    public var loudness: Bool?
    public var repeatMode: RepeatMode
    public var shuffle: Bool
    /// Seconds left out at each end of every item (since v14; a journal without them: none of
    /// the book's own).
    public var skipIntroSeconds: Double?
    public var skipOutroSeconds: Double?

    public init(speed: Double? = nil, skipIntervalSeconds: Double? = nil, sleepTimerSeconds: Double? = nil,
                skipSilence: SkipSilence? = nil, loudness: Bool? = nil, repeatMode: RepeatMode = .off, shuffle: Bool = false,
                skipIntroSeconds: Double? = nil, skipOutroSeconds: Double? = nil) {
        self.skipIntroSeconds = skipIntroSeconds
        self.skipOutroSeconds = skipOutroSeconds
        self.speed = speed
        self.skipIntervalSeconds = skipIntervalSeconds
        self.sleepTimerSeconds = sleepTimerSeconds
        self.skipSilence = skipSilence
        self.loudness = loudness
        self.repeatMode = repeatMode
        self.shuffle = shuffle
    }

    /// The travelling part of a book's stored settings (its own, not the defaults that apply).
    public init(_ settings: BookSettings) {
        self.init(speed: settings.ownSpeed, skipIntervalSeconds: settings.ownSkipIntervalSeconds,
                  sleepTimerSeconds: settings.sleepTimerSeconds, skipSilence: settings.ownSkipSilence,
                  loudness: settings.loudness, repeatMode: settings.repeatMode, shuffle: settings.shuffle,
                  skipIntroSeconds: settings.ownSkipIntroSeconds, skipOutroSeconds: settings.ownSkipOutroSeconds)
    }
}

/// A user chapter as it travels: the item by content fingerprint, as bookmarks and places are.
public struct SyncChapter: Equatable, Sendable {
    public var item: String
    /// At the item's own sample rate.
    public var frame: Int64
    public var title: String

    public init(item: String, frame: Int64, title: String) {
        self.item = item
        self.frame = frame
        self.title = title
    }

    /// `chapters` in the book's order (item, then frame): the one order every list is compared in.
    static func ordered(_ chapters: [SyncChapter], items: [String]) -> [SyncChapter] {
        let index = Dictionary(items.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { a, _ in a })
        return chapters.sorted { (index[$0.item] ?? Int.max, $0.frame) < (index[$1.item] ?? Int.max, $1.frame) }
    }
}

/// The newest record of a value a book has one of (its settings, its chapter list): the value,
/// when it was set, and on which device.
public struct SyncNewest<Value: Equatable & Sendable>: Equatable, Sendable {
    public var value: Value
    public var at: Date
    public var device: DeviceID

    public init(value: Value, at: Date, device: DeviceID) {
        self.value = value
        self.at = at
        self.device = device
    }
}

extension SyncMergeRules {
    /// Whether this library takes another device's newest record of a whole value (settings, a
    /// chapter list) over its own change dated `localAt` (nil: none since v12). The later wins, as
    /// places do; and as for places, a record dated in this machine's future beyond the tolerance
    /// (a clock ahead) never beats a change made here.
    public func takes<Value>(_ newest: SyncNewest<Value>, overLocalChangeAt localAt: Date?) -> Bool {
        guard newest.device != local else { return false }
        guard let localAt else { return true }
        if newest.at > now.addingTimeInterval(futureTolerance) { return false }
        return Self.isLater((newest.at, newest.device), than: (localAt, local))
    }
}
