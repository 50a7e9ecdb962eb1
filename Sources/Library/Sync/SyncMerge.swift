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
    public var positions: [PositionClaim] { places.map(sources.claim) }
    /// The same places as the merge keeps them (`MergedPlace`), their devices and items in `sources`.
    var places: [MergedPlace] = []
    let sources: MergeSources
    /// The newest finished or not-finished mark, by the same order as places.
    public var finished: (value: Bool, at: Date, device: DeviceID)?
    /// The bookmarks no device removed, each as its newest record says, oldest first.
    public var bookmarks: [SyncBookmark] = []
    /// Ids some device removed: a library deletes its own copy of these.
    public var removedBookmarks: Set<String> = []
    /// When each bookmark in `bookmarks` was last made or edited (its newest record's time).
    public var bookmarkEditedAt: [String: Date] = [:]
    /// The device whose record each bookmark in `bookmarks` is as: a bookmark that cannot be
    /// applied here is reported as that device's damaged record.
    var bookmarkDevices: [String: DeviceID] = [:]
    /// The newest settings record, by the same order as places: it wins the book's settings whole.
    public var settings: SyncNewest<SyncBookSettings>?
    /// The newest user-chapter list, likewise whole.
    public var chapters: SyncNewest<[SyncChapter]>?

    public static func == (lhs: MergedBook, rhs: MergedBook) -> Bool {
        let left = lhs.positions, right = rhs.positions
        return Set(left.map(\.device)) == Set(right.map(\.device))
            && left.allSatisfy { right.contains($0) } && lhs.bookmarks == rhs.bookmarks && lhs.removedBookmarks == rhs.removedBookmarks
            && lhs.finished?.value == rhs.finished?.value && lhs.finished?.at == rhs.finished?.at
            && lhs.finished?.device == rhs.finished?.device
            && lhs.settings == rhs.settings && lhs.chapters == rhs.chapters
    }

    /// The place that wins among the book's places and then `here` (this library's own), by
    /// `SyncMergeRules.winningPosition`: given the newest place and this device's newest (the
    /// only ones it can pick), so that only those two are made claims.
    ///
    /// `isPossible`: whether another device's place can be true here (within its item); one that
    /// cannot is passed over, as if that device had said nothing (`impossible` is told of it), so
    /// that a place six billion hours into a book, dated after everyone's listening, does not keep
    /// every true place from being taken. Asked only of a place about to win, rarely more than once.
    func winningPosition(_ rules: SyncMergeRules, and here: PositionClaim?, isPossible: (PositionClaim) -> Bool = { _ in true },
                         impossible: (PositionClaim) -> Void = { _ in }) -> PositionClaim? {
        let local = sources.deviceIndex[rules.local]
        var passedOver: Set<Int> = []
        while true {
            var newest: (index: Int, place: MergedPlace)?, newestLocal: MergedPlace?
            for (index, place) in places.enumerated() where !passedOver.contains(index) {
                if newest.map({ sources.isLater(place, than: $0.place) }) ?? true { newest = (index, place) }
                if place.device == local, newestLocal.map({ sources.isLater(place, than: $0) }) ?? true { newestLocal = place }
            }
            let winner = rules.winningPosition([newest?.place, newestLocal].compactMap { $0.map(sources.claim) }, and: here)
            guard let winner, let newest, winner.device != rules.local, !isPossible(winner) else { return winner }
            impossible(winner)
            // The winner other than this device's own is always the newest place of all.
            passedOver.insert(newest.index)
        }
    }
}

/// The sync merge rules, in one place (docs/guide.md states them for listeners).
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
        var merge = SyncJournalMerge(journals: journals.count)
        for journal in journals { merge.add(journal, key: key) }
        return merge.books
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

    /// Records from any devices in any order, merged as `merge(_:key:)` merges journals.
    public static func merge(_ records: [DeviceRecord], key: (SyncBookIdentity) -> Int64?) -> [Int64: MergedBook] {
        var keys: [SyncBookIdentity: Int64?] = [:]
        var merger = Merger()
        for entry in records {
            let found = keys[entry.record.book] ?? key(entry.record.book)
            keys[entry.record.book] = .some(found)
            guard let bookKey = found else { continue }
            merger.add(entry.record.change, at: entry.record.at, device: entry.device, book: merger.book(bookKey))
        }
        return merger.books
    }
}

/// Journals merged one after another, as `SyncMergeRules.merge` merges them all at once: an
/// exchange merges the other devices' while it works out what to write to its own, then its own.
struct SyncJournalMerge: Sendable {
    private var merger: Merger
    /// Each book as the merge numbers it, with the number of its first item, by the book's
    /// reference (a hash of its items and title, a short string): hashing the whole identity
    /// for each book of each journal cost more than the merge itself.
    private var slots: [String: (book: Int32, firstItem: Int32)?] = [:]
    /// The journal added last's references and their slots: a journal naming a book where the
    /// one before named the same (devices compact their journals in much the same order) takes
    /// its slot without a look-up, a million of which were half of merging 100 journals.
    private var previous: (references: [String], slots: [(book: Int32, firstItem: Int32)?]) = ([], [])

    /// `journals`: about how many will be added (room for a place from each in every book).
    init(journals: Int) { merger = Merger(placesPerBook: journals) }

    /// `journal`'s records folded in, its books named by `key` as `SyncMergeRules.merge` says.
    mutating func add(_ journal: SyncJournal, key: (SyncBookIdentity) -> Int64?) {
        let (device, isNew) = merger.device(journal.device)
        let bookSlots = journal.bookReferences.indices.map { index in
            let reference = journal.bookReferences[index]
            if index < previous.references.count, previous.references[index] == reference { return previous.slots[index] }
            if let known = slots[reference] { return known }
            let found = key(journal.books[index]).map { (book: merger.book($0), firstItem: merger.items(journal.books[index].items)) }
            slots[reference] = .some(found)
            return found
        }
        previous = (journal.bookReferences, bookSlots)
        for index in journal.otherEntries {
            let entry = journal.entries[index]
            guard let slot = bookSlots[entry.book], case let .other(change) = entry.stored else { continue }
            merger.add(change, at: entry.at, device: journal.device, book: slot.book)
        }
        // Each book's newest place and mark, as the journal found them while it was read.
        for (book, slot) in bookSlots.enumerated() {
            guard let slot else { continue }
            if let index = journal.newestPosition(ofBook: book), case let .position(item, frame) = journal.entries[index].stored {
                merger.add(MergedPlace(device: device, item: slot.firstItem + Int32(item), at: journal.entries[index].at, frame: frame),
                           book: slot.book, firstOfDevice: isNew)
            }
            if let index = journal.newestFinished(ofBook: book), case let .finished(value) = journal.entries[index].stored {
                merger.add(finished: value, at: journal.entries[index].at, device: journal.device, book: slot.book)
            }
        }
    }

    var books: [Int64: MergedBook] { merger.books }
}
