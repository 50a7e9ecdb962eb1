public import Foundation

/// Where a book stands here and on the other devices, as their journals say.
public struct SyncBookStatus: Sendable {
    /// A place, as seconds into the whole book (nil when an item's length is unknown), and when
    /// it was listened to.
    public struct Place: Sendable {
        public var device: DeviceID
        /// What the device calls itself, when its journal says.
        public var deviceName: String?
        public var seconds: Double?
        public var listenedAt: Date
    }

    public var bookId: Int64
    public var title: String
    public var here: Place?
    /// The other devices' places, newest listening first.
    public var elsewhere: [Place]
}

extension SyncBookStatus {
    /// The other devices' places in `state`, newest listening first, as seconds into `book`.
    static func places(_ state: MergedBook, of book: SyncSnapshot.Book, excluding device: DeviceID,
                       names: [DeviceID: String]) -> [Place] {
        state.positions.filter { $0.device != device }.sorted { $0.listenedAt > $1.listenedAt }.map {
            Place(device: $0.device, deviceName: names[$0.device], seconds: book.seconds(item: $0.item, frame: $0.frame),
                  listenedAt: $0.listenedAt)
        }
    }

    /// Every book's places on the other devices (books none has a place in left out), worked out
    /// on every core: 100 devices and 10,000 books are a million places, each sorted and turned
    /// into seconds into its book.
    static func placesOfEveryBook(_ merged: [Int64: MergedBook], snapshot: SyncSnapshot, excluding device: DeviceID,
                                  names: [DeviceID: String]) -> [Int64: [Place]] {
        let books = Array(merged)
        return SyncMergeRules.onEveryCore { shard, shards in
            var mine: [Int64: [Place]] = [:]
            for index in stride(from: shard, to: books.count, by: shards) {
                guard let book = snapshot.books[books[index].key] else { continue }
                let found = places(books[index].value, of: book, excluding: device, names: names)
                if !found.isEmpty { mine[book.id] = found }
            }
            return mine
        }
    }
}

extension LibraryDatabase {
    /// Every book some other device's journal in `folder` has a place for, with this library's
    /// own place beside it; and one line for each journal that could not be read whole. Reads;
    /// changes nothing. `deviceName`: this library's own, which another device's is told apart from.
    public func syncStatus(folder: String, device: DeviceID, deviceName: String) throws -> (books: [SyncBookStatus], problems: [String]) {
        let (contents, snapshot) = try syncFolderAndSnapshot(folder, excluding: device)
        guard let others = contents else {
            throw LibraryError.invalid("the sync folder \(folder) is missing or not a folder")
        }
        let merged = SyncMergeRules.merge(others.journals) { snapshot.bookId(matching: $0, library: self) }
        let names = others.deviceNames(besides: deviceName)
        let elsewhere = SyncBookStatus.placesOfEveryBook(merged, snapshot: snapshot, excluding: device, names: names)
        let books = elsewhere.compactMap { bookId, places -> SyncBookStatus? in
            guard let book = snapshot.books[bookId] else { return nil }
            let here = book.position.flatMap { position in
                book.fingerprint(ofMedia: position.mediaId).map {
                    SyncBookStatus.Place(device: device, deviceName: nil, seconds: book.seconds(item: $0, frame: position.frame),
                                         listenedAt: position.updatedAt)
                }
            }
            return SyncBookStatus(bookId: bookId, title: book.identity.title, here: here,
                                  elsewhere: places)
        }
        return (books.sorted { ($0.elsewhere.first?.listenedAt ?? .distantPast) > ($1.elsewhere.first?.listenedAt ?? .distantPast) },
                others.problems)
    }
}
