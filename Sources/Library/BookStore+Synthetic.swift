import Foundation
import GRDB

extension BookStore {
    /// Fills the library with `books` made-up books of `itemsPerBook` items each, spread over a
    /// two-level shelf tree (`shelfFanout` shelves, each with `shelfFanout` sub-shelves), in one
    /// transaction. For the benchmark of listing a big library; the media point at no real files.
    public func insertSyntheticBooks(books: Int, itemsPerBook: Int, shelfFanout: Int = 10) throws {
        try writer.write { db in
            var leaves: [Int64] = []
            for top in 0..<shelfFanout {
                for sub in 0..<shelfFanout {
                    leaves.append(try ShelfStore.createShelves(db, names: ["Synthetic \(top)", "Shelf \(sub)"]))
                }
            }
            let now = Date()
            for number in 0..<books {
                var book = Book(shelfId: leaves[number % leaves.count], title: "Book \(number)", author: "Author \(number % 997)",
                                addedAt: now)
                try book.insert(db)
                for index in 0..<itemsPerBook {
                    var media = Media(
                        id: nil, path: "/synthetic/\(number)/\(index).mp3", size: 1_000_000,
                        fingerprint: "1000000:\(String(number * itemsPerBook + index, radix: 16))", isMissing: false,
                        title: "Chapter \(index + 1)", artist: "Author \(number % 997)", album: "Book \(number)",
                        trackNumber: index + 1, sampleRate: 44100, durationFrames: 44100 * 600, chapters: "[]", hasCover: false)
                    try media.insert(db)
                    var item = BookItem(id: nil, bookId: book.id!, mediaId: media.id!, position: index)
                    try item.insert(db)
                }
            }
        }
    }
}
