import Foundation

/// A device's newest place in a book as a merge keeps it: its device and item by index in the
/// merge's `MergeSources`. 100 devices' journals of 10,000 books are a million places, gathered,
/// compared and sorted: as `PositionClaim`s, each retaining its own fingerprint string (scattered
/// in memory, a cache miss each), they were a third of an exchange.
struct MergedPlace: Sendable {
    var device: Int32
    var item: Int32
    var at: Date
    var frame: Int64
}

/// The devices and item fingerprints a merge's places name by index: one table for all its books.
public final class MergeSources: Sendable {
    let devices: [DeviceID]
    let items: [String]
    /// Each of `devices` by its index.
    let deviceIndex: [DeviceID: Int32]

    init(devices: [DeviceID], items: [String], deviceIndex: [DeviceID: Int32]) {
        self.devices = devices
        self.items = items
        self.deviceIndex = deviceIndex
    }

    func claim(_ place: MergedPlace) -> PositionClaim {
        PositionClaim(device: devices[Int(place.device)], listenedAt: place.at, item: items[Int(place.item)], frame: place.frame)
    }

    /// Newer listening first; at the same time, the greater device (`SyncMergeRules.isLater`).
    func isLater(_ a: MergedPlace, than b: MergedPlace) -> Bool {
        a.at != b.at ? a.at > b.at : devices[Int(a.device)] > devices[Int(b.device)]
    }
}

/// Folds changes into each book's merged state, in any order: every rule keeps the newest by
/// (time, device), so the order records arrive in never matters. Books are numbered as they come
/// (`book(_:)`) and each part of the state kept in an array or a dictionary of its own: a million
/// places, or a copy of a book's whole state per change, made a generic fold take seconds.
struct Merger {
    private var ids: [Int64] = []
    private var numbers: [Int64: Int32] = [:]
    private var devices: [DeviceID] = []
    private var deviceNumbers: [DeviceID: Int32] = [:]
    private var items: [String] = []
    private var itemNumbers: [String: Int32] = [:]
    /// Room for this many places in each book (a journal merge: one a journal).
    private let placesPerBook: Int

    private var places: [[MergedPlace]] = []
    private var finished: [(value: Bool, at: Date, device: DeviceID)?] = []
    private var newestBookmark: [Int32: [String: (at: Date, device: DeviceID, bookmark: SyncBookmark)]] = [:]
    private var removed: [Int32: Set<String>] = [:]
    private var settings: [Int32: SyncNewest<SyncBookSettings>] = [:]
    private var chapters: [Int32: SyncNewest<[SyncChapter]>] = [:]

    init(placesPerBook: Int = 0) { self.placesPerBook = placesPerBook }

    /// The merge's number for the local book `id`.
    mutating func book(_ id: Int64) -> Int32 {
        if let known = numbers[id] { return known }
        let number = Int32(ids.count)
        ids.append(id)
        numbers[id] = number
        places.append([])
        places[places.count - 1].reserveCapacity(placesPerBook)
        finished.append(nil)
        return number
    }

    /// The device's number, and whether this is the first time it is asked (nothing of it added yet).
    mutating func device(_ device: DeviceID) -> (number: Int32, isNew: Bool) {
        if let known = deviceNumbers[device] { return (known, false) }
        let number = Int32(devices.count)
        devices.append(device)
        deviceNumbers[device] = number
        return (number, true)
    }

    /// The number of the first of `fingerprints`, the rest numbered after it: a journal book's
    /// items, taken once for every journal naming the same book.
    mutating func items(_ fingerprints: [String]) -> Int32 {
        defer { items += fingerprints }
        return Int32(items.count)
    }

    /// `fingerprint`'s number, the same for every record naming it.
    mutating func item(_ fingerprint: String) -> Int32 {
        if let known = itemNumbers[fingerprint] { return known }
        let number = Int32(items.count)
        items.append(fingerprint)
        itemNumbers[fingerprint] = number
        return number
    }

    /// A device's place in `book`. `firstOfDevice`: nothing of this device's was added before
    /// (its first journal), so it is appended without looking for an older one.
    mutating func add(_ place: MergedPlace, book: Int32, firstOfDevice: Bool) {
        // A short list (one place a device) searched from the end: a journal's own places come together.
        if !firstOfDevice, let index = places[Int(book)].lastIndex(where: { $0.device == place.device }) {
            if places[Int(book)][index].at <= place.at { places[Int(book)][index] = place }
        } else {
            places[Int(book)].append(place)
        }
    }

    mutating func add(finished value: Bool, at: Date, device: DeviceID, book: Int32) {
        if let old = finished[Int(book)], !SyncMergeRules.isLater((at, device), than: (old.at, old.device)) { return }
        finished[Int(book)] = (value, at, device)
    }

    mutating func add(_ change: SyncChange, at: Date, device: DeviceID, book: Int32) {
        let stamp = (at: at, device: device)
        switch change {
        case let .position(item, frame):
            let (number, isNew) = self.device(device)
            add(MergedPlace(device: number, item: self.item(item), at: at, frame: frame), book: book, firstOfDevice: isNew)
        case let .finished(value):
            add(finished: value, at: at, device: device, book: book)
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

    /// The books, by local id, each with its bookmarks that no device removed, oldest first.
    var books: [Int64: MergedBook] {
        let sources = MergeSources(devices: devices, items: items, deviceIndex: deviceNumbers)
        var books: [Int64: MergedBook] = [:]
        books.reserveCapacity(ids.count)
        for (number, id) in ids.enumerated() {
            let book = Int32(number)
            let gone = removed[book] ?? []
            let marks = (newestBookmark[book] ?? [:]).filter { !gone.contains($0.key) }
            books[id] = MergedBook(
                places: places[number], sources: sources, finished: finished[number],
                bookmarks: marks.values.map(\.bookmark).sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) },
                removedBookmarks: gone, bookmarkEditedAt: marks.mapValues(\.at), bookmarkDevices: marks.mapValues(\.device),
                settings: settings[book], chapters: chapters[book])
        }
        return books
    }
}
