import Foundation

/// The other devices' places in each book, as one exchange merged them, worked out for a book
/// when it is asked for: the player shows the loaded book's (and a shelf's in `ls`), and 100
/// devices' places in 10,000 books are a million, each turned into seconds into its book and
/// sorted, for nothing at every exchange.
public struct SyncElsewhere: Sendable {
    private let merged: [Int64: MergedBook]
    private let books: [Int64: SyncSnapshot.Book]
    private let device: DeviceID?
    private let names: [DeviceID: String]

    /// None anywhere (before the first exchange).
    public init() {
        merged = [:]
        books = [:]
        device = nil
        names = [:]
    }

    /// `merged`'s places of the books in `snapshot`, but `device`'s own (this library's).
    init(_ merged: [Int64: MergedBook], snapshot: SyncSnapshot, excluding device: DeviceID, names: [DeviceID: String]) {
        self.merged = merged
        books = snapshot.books
        self.device = device
        self.names = names
    }

    /// The other devices' places in the book, newest listening first, as seconds into the book
    /// here (none: no other device has a place in it).
    public subscript(bookId: Int64) -> [SyncBookStatus.Place] { places(ofBook: bookId, newest: nil).shown }

    /// The `newest` of them that listened last (nil: every one), and how many more there are:
    /// only the places shown are turned into seconds into the book.
    func places(ofBook bookId: Int64, newest: Int?) -> (shown: [SyncBookStatus.Place], more: Int) {
        guard let state = merged[bookId], let book = books[bookId] else { return ([], 0) }
        let excluded = device.flatMap { state.sources.deviceIndex[$0] }
        let all = state.places.filter { $0.device != excluded }.sorted { $0.at > $1.at }
        let shown = newest.map { all.prefix($0) } ?? all[...]
        // Each item's index in the book here found once, not once for each device's place in it.
        var itemsHere: [Int32: Int?] = [:]
        return (shown.map { place in
            let index = itemsHere[place.item] ?? {
                let found = book.identity.items.firstIndex(of: state.sources.items[Int(place.item)])
                itemsHere[place.item] = found
                return found
            }()
            let device = state.sources.devices[Int(place.device)]
            return SyncBookStatus.Place(device: device, deviceName: names[device],
                                        // A place past its item's end (damaged) is not shown as a time it cannot be.
                                        seconds: index.flatMap { book.holds(itemIndex: $0, frame: place.frame) ? book.seconds(itemIndex: $0, frame: place.frame) : nil },
                                        listenedAt: place.at)
        }, all.count - shown.count)
    }

    /// Every book's places, as `places(ofBook:newest:)` gives them (books no other device has a
    /// place in left out), worked out on every core.
    func everyBook(newest: Int?) -> [Int64: (shown: [SyncBookStatus.Place], more: Int)] {
        let ids = Array(merged.keys)
        return SyncMergeRules.onEveryCore { shard, shards in
            var mine: [Int64: (shown: [SyncBookStatus.Place], more: Int)] = [:]
            for index in stride(from: shard, to: ids.count, by: shards) {
                let places = places(ofBook: ids[index], newest: newest)
                if !places.shown.isEmpty { mine[ids[index]] = places }
            }
            return mine
        }
    }
}
