import Library
import PlayerCore

/// A book's items laid end to end: converts between a place in an item (what the engine plays)
/// and seconds into the whole book (what the user types and reads), and lists its chapters.
struct BookTimeline {
    struct Item {
        let title: String
        /// The file, as the library has it.
        let path: String
        let sampleRate: Int
        /// Nil when the file does not say.
        let frames: Int64?
        var chapters: [ChapterMark]
        /// The library's media row: where the listener's own chapters are kept.
        var mediaId: Int64? = nil

        var seconds: Double? { frames.map { Double($0) / Double(sampleRate) } }
    }

    /// A chapter somewhere in the book.
    struct BookChapter {
        let item: Int
        let startFrame: Int64
        let title: String
        /// A file of a many-file book standing as a chapter: it has none of its own.
        let isWholeItem: Bool
        /// The listener's own chapter (`UserChapter.id`); nil for one from the files.
        var userChapterId: Int64? = nil
    }

    /// The items; setting them works out the chapters again.
    var items: [Item] { didSet { chapters = Self.chapters(of: items, userChapters: userChapters) } }
    /// The listener's own chapters: when there are any, they are the book's whole chapter list.
    var userChapters: [UserChapter] { didSet { chapters = Self.chapters(of: items, userChapters: userChapters) } }
    /// The book's chapters in order, numbered from 1 when shown.
    private(set) var chapters: [BookChapter]

    init(media: [Media], userChapters: [UserChapter] = []) {
        let items = media.map {
            Item(title: $0.displayTitle, path: $0.path, sampleRate: $0.sampleRate, frames: $0.durationFrames, chapters: $0.chapterMarks,
                 mediaId: $0.id)
        }
        self.items = items
        self.userChapters = userChapters
        chapters = Self.chapters(of: items, userChapters: userChapters)
    }

    /// Whether the chapters are the listener's own rather than the files'.
    var hasUserChapters: Bool { !chapters.isEmpty && chapters.allSatisfy { $0.userChapterId != nil } }

    private static func chapters(of items: [Item], userChapters: [UserChapter]) -> [BookChapter] {
        let itemOfMedia = Dictionary(items.enumerated().compactMap { index, item in item.mediaId.map { ($0, index) } },
                                     uniquingKeysWith: { first, _ in first })
        // A chapter on a file no longer in the book has nowhere to be.
        let own = userChapters.compactMap { chapter in
            itemOfMedia[chapter.mediaId].map {
                BookChapter(item: $0, startFrame: chapter.frame, title: chapter.title, isWholeItem: false, userChapterId: chapter.id)
            }
        }
        guard own.isEmpty else { return own.sorted { ($0.item, $0.startFrame) < ($1.item, $1.startFrame) } }
        return chapters(of: items)
    }

    /// The embedded chapters, and, as BookPlayer does, each file that has none standing as a
    /// chapter of its own: `c`, `chapter next`, the chapter bar and MPRIS's Next then work the
    /// same on a book of 25 MP3s as on an M4B. A book of one file without chapters has none.
    private static func chapters(of items: [Item]) -> [BookChapter] {
        guard items.count > 1 || items.contains(where: { !$0.chapters.isEmpty }) else { return [] }
        return items.enumerated().flatMap { index, item in
            item.chapters.isEmpty
                ? [BookChapter(item: index, startFrame: 0, title: item.title, isWholeItem: true)]
                : item.chapters.map { BookChapter(item: index, startFrame: $0.startFrame, title: $0.title, isWholeItem: false) }
        }
    }

    var paths: [String] { items.map(\.path) }

    /// The whole book's length; nil when an item's length is unknown.
    var totalSeconds: Double? {
        items.reduce(Double?.some(0)) { total, item in total.flatMap { t in item.seconds.map { t + $0 } } }
    }

    func seconds(inItem position: PlaybackPosition) -> Double {
        Double(position.frame) / Double(items[position.item].sampleRate)
    }

    /// Seconds into the book; nil when an earlier item's length is unknown.
    func bookSeconds(_ position: PlaybackPosition) -> Double? {
        items[..<position.item].reduce(Double?.some(seconds(inItem: position))) { total, item in
            total.flatMap { t in item.seconds.map { t + $0 } }
        }
    }

    /// The place `seconds` into the book, clamped to its start; nil past its end or when a
    /// length it needs is unknown.
    func position(atBookSeconds seconds: Double) -> PlaybackPosition? {
        var left = max(0, seconds)
        for (index, item) in items.enumerated() {
            guard let length = item.seconds else {
                // An item of unknown length: only its start can be reached from before it.
                return left == 0 ? PlaybackPosition(item: index, frame: 0) : nil
            }
            if left < length || index == items.count - 1 && left <= length {
                // `left` carries the rounding of every length taken off before it: 3.75 s less
                // a first file of 178,082 frames at 48 kHz came to 1917.99999... frames, one
                // frame early. A millionth of a frame absorbs that and moves no typed time.
                let frame = Int64(left * Double(item.sampleRate) + 1e-6)
                if let frames = item.frames, frame >= frames, index < items.count - 1 {
                    left = 0  // the end of this item within that rounding: the next one's start
                    continue
                }
                return PlaybackPosition(item: index, frame: frame)
            }
            left -= length
        }
        return nil
    }

    func position(item: Int, seconds: Double) -> PlaybackPosition {
        PlaybackPosition(item: item, frame: Int64(saturating: seconds * Double(items[item].sampleRate)))
    }

    /// The index (in `chapters`) of the chapter `position` is in; nil before the first one.
    func chapterIndex(at position: PlaybackPosition) -> Int? {
        chapters.lastIndex { ($0.item, $0.startFrame) <= (position.item, position.frame) }
    }

    /// Where chapter `index` ends in its item, in frames: at the next chapter when that is in
    /// the same item, else at the item's end (nil when its length is unknown).
    func endFrame(ofChapter index: Int) -> Int64? {
        let chapter = chapters[index]
        if chapters.indices.contains(index + 1), chapters[index + 1].item == chapter.item {
            return chapters[index + 1].startFrame
        }
        return items[chapter.item].frames
    }

    /// Chapter `index`'s start in the book and its length, in seconds; nil where a length
    /// they need is unknown.
    func span(ofChapter index: Int) -> (start: Double?, length: Double?) {
        let chapter = chapters[index]
        let rate = Double(items[chapter.item].sampleRate)
        let length = endFrame(ofChapter: index).map { Double($0 - chapter.startFrame) / rate }
        return (bookSeconds(PlaybackPosition(item: chapter.item, frame: chapter.startFrame)), length)
    }
}
