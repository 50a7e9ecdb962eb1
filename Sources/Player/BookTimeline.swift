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

        var seconds: Double? { frames.map { Double($0) / Double(sampleRate) } }
    }

    /// A chapter somewhere in the book.
    struct BookChapter {
        let item: Int
        let startFrame: Int64
        let title: String
    }

    var items: [Item]

    init(media: [Media]) {
        items = media.map {
            Item(title: $0.displayTitle, path: $0.path, sampleRate: $0.sampleRate, frames: $0.durationFrames, chapters: $0.chapterMarks)
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
                return PlaybackPosition(item: index, frame: Int64(left * Double(item.sampleRate)))
            }
            left -= length
        }
        return nil
    }

    func position(item: Int, seconds: Double) -> PlaybackPosition {
        PlaybackPosition(item: item, frame: Int64(seconds * Double(items[item].sampleRate)))
    }

    var chapters: [BookChapter] {
        items.enumerated().flatMap { index, item in
            item.chapters.map { BookChapter(item: index, startFrame: $0.startFrame, title: $0.title) }
        }
    }

    /// The index (in `chapters`) of the chapter `position` is in; nil before the first one.
    func chapterIndex(at position: PlaybackPosition) -> Int? {
        chapters.lastIndex { ($0.item, $0.startFrame) <= (position.item, position.frame) }
    }
}
