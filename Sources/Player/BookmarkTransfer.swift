public import Library
import Foundation
import PlayerCore

/// `bookmarks export` and `bookmarks import`: a book's bookmarks as the entries of an export
/// file (`BookmarkFile`), each placed in the book's time and in its file's; and the entries of
/// such a file made the book's bookmarks again, placed by file and time in the file when the
/// file is one of the book's, else by the book's time.
public enum BookmarkTransfer {
    /// What an import did, said in one line, and the lines of the file it could not use, each
    /// said in one line.
    public struct Imported: Sendable, Equatable {
        public var imported = 0
        public var alreadyThere = 0
        public var problems: [String] = []

        /// "imported 5 bookmarks, 2 already there".
        public var summary: String {
            "imported \(imported) bookmark\(imported == 1 ? "" : "s")" + (alreadyThere > 0 ? ", \(alreadyThere) already there" : "")
                + (problems.isEmpty ? "" : ", \(problems.count) line\(problems.count == 1 ? "" : "s") not read")
        }
    }

    /// The book's bookmarks in its order (the listener's own; `all`: the automatic ones too).
    public static func entries(ofBook bookId: Int64, in library: LibraryDatabase, all: Bool) throws -> [BookmarkEntry] {
        let media = try library.books.items(ofBook: bookId)
        return entries(try library.bookmarks.numbered(ofBook: bookId), all: all,
                       timeline: BookTimeline(media: media, userChapters: try library.books.userChapters(ofBook: bookId)),
                       mediaIds: media.map { $0.id! })
    }

    /// `bookmarks` placed on `timeline`, whose items are the media `mediaIds`.
    static func entries(_ bookmarks: [NumberedBookmark], all: Bool, timeline: BookTimeline, mediaIds: [Int64]) -> [BookmarkEntry] {
        let names = fileNames(timeline.paths)
        return bookmarks.filter { all || !$0.number.isAutomatic }.map { numbered in
            let mark = numbered.bookmark
            let place = BookmarkPlace(numbered, timeline: timeline, mediaIds: mediaIds)
            let item = place.item
            return BookmarkEntry(
                number: numbered.number.description, bookSeconds: place.seconds, file: item.map { names[$0] },
                fileSeconds: item.map { timeline.seconds(inItem: PlaybackPosition(item: $0, frame: mark.frame)) },
                chapter: place.chapterTitle ?? item.map { timeline.items[$0].title }, kind: mark.kind.rawValue,
                note: mark.note, createdAt: mark.createdAt)
        }
    }

    /// Makes user bookmarks of `read`'s entries in the book; one at a place (within the file's
    /// precision) that already has one with the same note is passed over.
    public static func importing(_ read: ReadBookmarks, toBook bookId: Int64, in library: LibraryDatabase) throws -> Imported {
        let media = try library.books.items(ofBook: bookId)
        let timeline = BookTimeline(media: media, userChapters: try library.books.userChapters(ofBook: bookId))
        let title = try library.books.book(matching: "#\(bookId)").title
        var marks = try library.bookmarks.all(ofBook: bookId, includeAutomatic: false)
        var result = Imported(problems: read.problems.map(\.description))
        for line in read.lines {
            let position: PlaybackPosition
            switch place(line.entry, timeline: timeline, title: title) {
            case let .success(found): position = found
            case let .failure(problem):
                result.problems.append(read.problem(at: line.number, problem.reason))
                continue
            }
            let mediaId = media[position.item].id!
            let tolerance = Int64(read.resolution * Double(media[position.item].sampleRate))
            let note = line.entry.note?.isEmpty == true ? nil : line.entry.note
            if marks.contains(where: { $0.mediaId == mediaId && abs($0.frame - position.frame) <= tolerance && $0.note == note }) {
                result.alreadyThere += 1
                continue
            }
            marks.append(try library.bookmarks.add(bookId: bookId, mediaId: mediaId, frame: position.frame, kind: .user, note: note,
                                                   at: line.entry.createdAt ?? Date()))
            result.imported += 1
        }
        return result
    }

    struct Unplaced: Error {
        let reason: String
    }

    /// Where `entry` is in the book: by its file and time in it when the book has that file,
    /// else by its time in the book.
    static func place(_ entry: BookmarkEntry, timeline: BookTimeline, title: String) -> Result<PlaybackPosition, Unplaced> {
        if let file = entry.file, let seconds = entry.fileSeconds {
            let matches = timeline.items.indices.filter { index in
                let path = timeline.items[index].path
                return path == file || path.hasSuffix("/" + file)
            }
            if matches.count == 1, let item = matches.first {
                let frame = Int64(saturating: (seconds * Double(timeline.items[item].sampleRate)).rounded())
                if let frames = timeline.items[item].frames, frame > frames {
                    return .failure(Unplaced(reason: "\(Timecode.format(seconds: seconds)) is past the end of \(file)"))
                }
                return .success(PlaybackPosition(item: item, frame: frame))
            }
            if entry.bookSeconds == nil {
                return .failure(Unplaced(reason: matches.isEmpty ? "\(title) has no file \(file)" : "\(title) has \(matches.count) files named \(file)"))
            }
        }
        guard let seconds = entry.bookSeconds else { return .failure(Unplaced(reason: "no time")) }
        guard let found = timeline.position(atBookSeconds: seconds) else {
            let length = timeline.totalSeconds.map { " (\(Timecode.format(seconds: $0)))" } ?? ""
            return .failure(Unplaced(reason: "\(Timecode.format(seconds: seconds)) is past the end of \(title)\(length)"))
        }
        // The timeline truncates to a frame; the files write times rounded (to a microsecond, a
        // millisecond), so the nearest frame is the one exported.
        let start = timeline.bookSeconds(PlaybackPosition(item: found.item, frame: 0)) ?? 0
        let item = timeline.items[found.item]
        let frame = Int64(saturating: ((seconds - start) * Double(item.sampleRate)).rounded())
        return .success(PlaybackPosition(item: found.item, frame: min(max(0, frame), item.frames ?? .max)))
    }

    /// Each file's name as an export writes it: its name, or with its folder when two files of
    /// the book share a name (CD1/01.mp3, CD2/01.mp3).
    static func fileNames(_ paths: [String]) -> [String] {
        let names = paths.map { ($0 as NSString).lastPathComponent }
        return zip(paths, names).map { path, name in
            guard names.filter({ $0 == name }).count > 1 else { return name }
            let folder = ((path as NSString).deletingLastPathComponent as NSString).lastPathComponent
            return folder.isEmpty ? name : folder + "/" + name
        }
    }
}
