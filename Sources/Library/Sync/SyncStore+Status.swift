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
    /// The other devices' places, newest listening first (as many as were asked for).
    public var elsewhere: [Place]
    /// How many other devices have a place in it beyond those in `elsewhere`.
    public var moreElsewhere = 0
}

extension SyncStore {
    /// Every book some other device's journal in `folder` has a place for, with this library's
    /// own place beside it; and one line for each journal that could not be read whole. Reads;
    /// changes nothing. `deviceName`: this library's own, which another device's is told apart from.
    /// `devicesPerBook`: of the other devices, the ones that listened last (nil: every one).
    public func status(folder: String, device: DeviceID, deviceName: String,
                       devicesPerBook: Int? = nil) throws -> (books: [SyncBookStatus], problems: [String]) {
        let (contents, snapshot) = try syncFolderAndSnapshot(folder, excluding: device)
        guard let others = contents else {
            throw LibraryError.invalid("the sync folder \(folder) is missing or not a folder")
        }
        let merged = SyncMergeRules.merge(others.journals) { snapshot.bookId(matching: $0, library: self) }
        let names = others.deviceNames(besides: deviceName)
        let elsewhere = SyncElsewhere(merged, snapshot: snapshot, excluding: device, names: names).everyBook(newest: devicesPerBook)
        let books = elsewhere.compactMap { bookId, places -> SyncBookStatus? in
            guard let book = snapshot.books[bookId] else { return nil }
            let here = book.position.flatMap { position in
                book.fingerprint(ofMedia: position.mediaId).map {
                    SyncBookStatus.Place(device: device, deviceName: nil, seconds: book.seconds(item: $0, frame: position.frame),
                                         listenedAt: position.updatedAt)
                }
            }
            return SyncBookStatus(bookId: bookId, title: book.identity.title, here: here, elsewhere: places.shown,
                                  moreElsewhere: places.more)
        }
        // Newest listening elsewhere first; of the same time, by title, then by id, so two runs say the same.
        func newest(_ book: SyncBookStatus) -> Date { book.elsewhere.first?.listenedAt ?? .distantPast }
        return (books.sorted { (newest($1), $0.title, $0.bookId) < (newest($0), $1.title, $1.bookId) }, others.problems)
    }
}
