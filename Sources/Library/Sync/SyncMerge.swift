public import Foundation
import Synchronization

/// A device's word on where a book stands: the place it heard last, and when.
public struct PositionClaim: Equatable, Sendable {
    public var device: DeviceID
    public var listenedAt: Date
    /// The item's fingerprint, and the frame at its own rate.
    public var item: String
    public var frame: Int64

    public init(device: DeviceID, listenedAt: Date, item: String, frame: Int64) {
        self.device = device
        self.listenedAt = listenedAt
        self.item = item
        self.frame = frame
    }
}

/// Every device's records of one book, merged.
public struct MergedBook: Equatable, Sendable {
    /// Every device's newest place, one a device (this device's too, if it wrote one):
    /// `SyncMergeRules.winningPosition` picks.
    public var positions: [PositionClaim] = []
    /// The newest finished or not-finished mark, by the same order as places.
    public var finished: (value: Bool, at: Date, device: DeviceID)?
    /// The bookmarks no device removed, each as its newest record says, oldest first.
    public var bookmarks: [SyncBookmark] = []
    /// Ids some device removed: a library deletes its own copy of these.
    public var removedBookmarks: Set<String> = []
    /// When each bookmark in `bookmarks` was last made or edited (its newest record's time).
    public var bookmarkEditedAt: [String: Date] = [:]
    /// The newest settings record, by the same order as places: it wins the book's settings whole.
    public var settings: SyncNewest<SyncBookSettings>?
    /// The newest user-chapter list, likewise whole.
    public var chapters: SyncNewest<[SyncChapter]>?

    public static func == (lhs: MergedBook, rhs: MergedBook) -> Bool {
        Set(lhs.positions.map(\.device)) == Set(rhs.positions.map(\.device))
            && lhs.positions.allSatisfy { rhs.positions.contains($0) } && lhs.bookmarks == rhs.bookmarks && lhs.removedBookmarks == rhs.removedBookmarks
            && lhs.finished?.value == rhs.finished?.value && lhs.finished?.at == rhs.finished?.at
            && lhs.finished?.device == rhs.finished?.device
            && lhs.settings == rhs.settings && lhs.chapters == rhs.chapters
    }
}

/// The sync merge rules, in one place (the README states them once `sync` is wired to a folder).
public struct SyncMergeRules: Sendable {
    /// This library's device.
    public var local: DeviceID
    public var now: Date
    /// A record dated later than `now` plus this came from a clock ahead of ours: it is used,
    /// but it is not trusted to beat listening done here.
    public var futureTolerance: TimeInterval

    public init(local: DeviceID, now: Date = Date(), futureTolerance: TimeInterval = 5 * 60) {
        self.local = local
        self.now = now
        self.futureTolerance = futureTolerance
    }

    /// Newer listening first; at the same time, the greater device id (any fixed order would do:
    /// every device must pick the same one).
    static func isLater(_ a: (at: Date, device: DeviceID), than b: (at: Date, device: DeviceID)) -> Bool {
        a.at != b.at ? a.at > b.at : a.device > b.device
    }

    /// The place that wins: the most recent listening, except that another device's place dated
    /// in the future (beyond the tolerance) never beats this device's own.
    public func winningPosition(_ claims: [PositionClaim]) -> PositionClaim? { winningPosition(claims, and: nil) }

    /// The place that wins among `claims` and then `last` (this library's own place): adding it
    /// to a copy of the claims copied a hundred of them for each book of a library.
    func winningPosition(_ claims: [PositionClaim], and last: PositionClaim?) -> PositionClaim? {
        func newest(where include: (PositionClaim) -> Bool) -> PositionClaim? {
            var best: PositionClaim?
            func consider(_ claim: PositionClaim) {
                guard include(claim) else { return }
                if best.map({ Self.isLater((claim.listenedAt, claim.device), than: ($0.listenedAt, $0.device)) }) ?? true { best = claim }
            }
            for claim in claims { consider(claim) }
            if let last { consider(last) }
            return best
        }
        let best = newest { _ in true }
        guard let best, best.device != local, best.listenedAt > now.addingTimeInterval(futureTolerance) else { return best }
        return newest { $0.device == local } ?? best
    }

    /// Every device's journal, merged per book as `key` names it (the local book's id; nil: a book
    /// this library does not have, left out). `key` is asked once per book, not once per record.
    public static func merge(_ journals: [SyncJournal], key: (SyncBookIdentity) -> Int64?) -> [Int64: MergedBook] {
        // By the book's reference (a hash of its items and title, a short string): hashing the
        // whole identity for each book of each journal cost more than the merge itself.
        var keys: [String: Int64?] = [:]
        let bookKeys = journals.map { journal in
            journal.bookReferences.indices.map { index in
                let reference = journal.bookReferences[index]
                if let known = keys[reference] { return known }
                let found = key(journal.books[index])
                keys[reference] = .some(found)
                return found
            }
        }
        // Then the changes folded in on every core, each taking the books whose id falls to it (a
        // million places from 100 devices' journals of 10,000 books took most of a second on one).
        return onEveryCore { shard, shards in
            fold(journals, bookKeys: bookKeys) { Int(UInt64(bitPattern: $0) % UInt64(shards)) == shard }
        }
    }

    /// `work` run once per core (at most 8) as shard `shard` of `shards`, each giving the books it
    /// took; all of them together. For the work a sync does per book, a million places at a time.
    static func onEveryCore<Value: Sendable>(_ work: @Sendable (_ shard: Int, _ shards: Int) -> [Int64: Value]) -> [Int64: Value] {
        let shards = min(ProcessInfo.processInfo.activeProcessorCount, 8)
        let all = Mutex([Int64: Value]())
        DispatchQueue.concurrentPerform(iterations: shards) { shard in
            let mine = work(shard, shards)
            all.withLock { $0.merge(mine) { first, _ in first } }
        }
        return all.withLock { $0 }
    }

    /// The journals' changes to the books `allKeys` names for each (nil: left out) that are `mine`, merged.
    private static func fold(_ journals: [SyncJournal], bookKeys allKeys: [[Int64?]], mine: (Int64) -> Bool) -> [Int64: MergedBook] {
        var merger = Merger()
        var devices: Set<DeviceID> = []
        for (journal, keys) in zip(journals, allKeys) {
            let firstOfDevice = devices.insert(journal.device).inserted
            for index in journal.otherEntries {
                let entry = journal.entries[index]
                guard let bookKey = keys[entry.book], mine(bookKey), case let .other(change) = entry.stored else { continue }
                merger.add(change, at: entry.at, device: journal.device, book: bookKey)
            }
            // Each book's newest place and mark, as the journal found them while it was read.
            for (book, bookKey) in keys.enumerated() {
                guard let bookKey, mine(bookKey) else { continue }
                // Each in turn, not in a loop over an array of the two: that array, made for every
                // book of every journal, was a million allocations.
                if let index = journal.newestPosition(ofBook: book) {
                    merger.add(journal.change(of: journal.entries[index]), at: journal.entries[index].at, device: journal.device,
                               book: bookKey, firstOfDevice: firstOfDevice)
                }
                if let index = journal.newestFinished(ofBook: book) {
                    merger.add(journal.change(of: journal.entries[index]), at: journal.entries[index].at, device: journal.device,
                               book: bookKey, firstOfDevice: firstOfDevice)
                }
            }
        }
        return merger.books
    }

    /// Records from any devices in any order, merged as `merge(_:key:)` merges journals.
    public static func merge(_ records: [DeviceRecord], key: (SyncBookIdentity) -> Int64?) -> [Int64: MergedBook] {
        var keys: [SyncBookIdentity: Int64?] = [:]
        var merger = Merger()
        for entry in records {
            let found = keys[entry.record.book] ?? key(entry.record.book)
            keys[entry.record.book] = .some(found)
            guard let bookKey = found else { continue }
            merger.add(entry.record.change, at: entry.record.at, device: entry.device, book: bookKey)
        }
        return merger.books
    }
}

/// Folds changes into each book's merged state, in any order: every rule keeps the newest by
/// (time, device), so the order records arrive in never matters. Not generic, and each part of
/// the state in a dictionary of its own: 100 devices' journals of 10,000 books are a million
/// changes, and a generic key or a copy of a book's whole state per change made that seconds.
private struct Merger {
    private var positions: [Int64: [PositionClaim]] = [:]
    private var finished: [Int64: (value: Bool, at: Date, device: DeviceID)] = [:]
    private var newestBookmark: [Int64: [String: (at: Date, device: DeviceID, bookmark: SyncBookmark)]] = [:]
    private var removed: [Int64: Set<String>] = [:]
    private var settings: [Int64: SyncNewest<SyncBookSettings>] = [:]
    private var chapters: [Int64: SyncNewest<[SyncChapter]>] = [:]

    /// `firstOfDevice`: the caller knows no change of this device's was added before (the first
    /// journal of a device), so its place is appended without looking for an older one.
    mutating func add(_ change: SyncChange, at: Date, device: DeviceID, book: Int64, firstOfDevice: Bool = false) {
        let stamp = (at: at, device: device)
        switch change {
        case let .position(item, frame):
            let claim = PositionClaim(device: device, listenedAt: at, item: item, frame: frame)
            // A short list (one claim a device) searched from the end: a journal's own claims come together.
            if !firstOfDevice, let index = positions[book]?.lastIndex(where: { $0.device == device }) {
                if positions[book]![index].listenedAt <= at { positions[book]![index] = claim }
            } else {
                positions[book, default: []].append(claim)
            }
        case let .finished(value):
            if let old = finished[book], !SyncMergeRules.isLater(stamp, than: (old.at, old.device)) { return }
            finished[book] = (value, at, device)
        case let .bookmark(bookmark):
            if let old = newestBookmark[book]?[bookmark.id], !SyncMergeRules.isLater(stamp, than: (old.at, old.device)) { return }
            newestBookmark[book, default: [:]][bookmark.id] = (at, device, bookmark)
        case let .bookmarkRemoved(id):
            removed[book, default: []].insert(id)
        case let .settings(value):
            if let old = settings[book], !SyncMergeRules.isLater(stamp, than: (old.at, old.device)) { return }
            settings[book] = SyncNewest(value: value, at: at, device: device)
        case let .chapters(list):
            if let old = chapters[book], !SyncMergeRules.isLater(stamp, than: (old.at, old.device)) { return }
            chapters[book] = SyncNewest(value: list, at: at, device: device)
        }
    }

    /// The books, each with its bookmarks that no device removed, oldest first.
    var books: [Int64: MergedBook] {
        var books: [Int64: MergedBook] = [:]
        for book in Set(positions.keys).union(finished.keys).union(newestBookmark.keys).union(removed.keys)
            .union(settings.keys).union(chapters.keys) {
            let gone = removed[book] ?? []
            books[book] = MergedBook(
                positions: positions[book] ?? [], finished: finished[book],
                bookmarks: (newestBookmark[book] ?? [:]).values.map(\.bookmark).filter { !gone.contains($0.id) }
                    .sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) },
                removedBookmarks: gone,
                bookmarkEditedAt: (newestBookmark[book] ?? [:]).filter { !gone.contains($0.key) }.mapValues(\.at),
                settings: settings[book], chapters: chapters[book])
        }
        return books
    }
}
