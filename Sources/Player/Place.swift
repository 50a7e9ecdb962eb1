import PlayerCore

/// Where the listener is after a move, as the one line every front end answers a move with
/// (mpv's on-screen message): the time in the book and, when the book has chapters, the
/// chapter and the time into it. Times are seconds; nil where an item's length is unknown.
public struct Place: Sendable, Equatable {
    public struct Chapter: Sendable, Equatable {
        /// From 1.
        public let number: Int
        public let count: Int
        public let title: String
        /// Seconds into the chapter.
        public let seconds: Double
        public let length: Double?
    }

    public let bookSeconds: Double?
    public let bookLength: Double?
    /// Nil in a book without chapters, or before its first chapter.
    public let chapter: Chapter?

    init(_ session: PlayerSession) {
        let timeline = session.timeline
        let position = session.position
        bookSeconds = timeline.bookSeconds(position)
        bookLength = timeline.totalSeconds
        chapter = timeline.chapterIndex(at: position).map { index in
            let start = timeline.chapters[index]
            let frames = position.item == start.item ? position.frame - start.startFrame : 0
            return Chapter(number: index + 1, count: timeline.chapters.count, title: start.title,
                           seconds: Double(frames) / Double(timeline.items[start.item].sampleRate),
                           length: timeline.span(ofChapter: index).length)
        }
    }

    /// `1:02:03 / 12:00:00 (8%) · chapter 3/8: The Storm, 2:05 / 10:00`.
    public var text: String {
        var line = "\(Timecode.format(seconds: bookSeconds)) / \(Timecode.format(seconds: bookLength))"
        if let bookSeconds, let bookLength, bookLength > 0 {
            line += " (\(Int(saturating: (bookSeconds / bookLength * 100).rounded(.down)))%)"
        }
        if let chapter {
            line += " · chapter \(chapter.number)/\(chapter.count): \(chapter.title), "
                + "\(Timecode.format(seconds: chapter.seconds)) / \(Timecode.format(seconds: chapter.length))"
        }
        return line
    }
}
