import Library
import PlayerCore

/// Moving in the book loaded: skips, seeks, items, chapters, undo. Each move but undo leaves an
/// undo point (`PlayerSession.jump`). Bookmarks: `BookmarkCommands`.
struct Navigation {
    let library: LibraryDatabase
    let session: PlayerSession

    /// The move `command` asks for; nil when it is not a move.
    func perform(_ command: PlayerCommand) throws -> PlayerOutcome? {
        switch command {
        case let .skip(forward, seconds): try skip(forward: forward, seconds: seconds)
        case let .seek(target): try seek(target)
        case let .goto(item, seconds): try goto(item: item, seconds: seconds)
        case .nextItem: try nextItem()
        case .previousItem: try previousItem()
        case let .chapter(target): try chapter(target)
        case .undo: try undo()
        default: nil
        }
    }

    /// Where the book is now, in seconds; an error when an item's length is unknown.
    private func bookSeconds() throws(PlayerError) -> Double {
        guard let seconds = session.timeline.bookSeconds(session.position) else {
            throw PlayerError("an earlier item's length is unknown; use 'goto ITEM mm:ss'")
        }
        return seconds
    }

    private func skip(forward: Bool, seconds: Double?) throws -> PlayerOutcome {
        let amount = seconds ?? session.settings.skipIntervalSeconds
        try move(toBookSeconds: try bookSeconds() + (forward ? amount : -amount), kind: .beforeSkip)
        return .moved(Place(session))
    }

    private func seek(_ target: SeekTarget) throws -> PlayerOutcome {
        let seconds: Double
        switch target {
        case let .absolute(value): seconds = value
        case let .relative(value): seconds = try bookSeconds() + value
        case let .percent(share):
            guard let total = session.timeline.totalSeconds else {
                throw PlayerError("the book's length is unknown, so \(share)% is nowhere; use a time")
            }
            seconds = total * share / 100
        }
        try move(toBookSeconds: seconds, kind: .beforeSeek)
        return .moved(Place(session))
    }

    private func move(toBookSeconds seconds: Double, kind: BookmarkKind) throws(PlayerError) {
        guard let target = session.timeline.position(atBookSeconds: seconds) else {
            throw PlayerError("\(Timecode.format(seconds: seconds)) is past the end of the book (\(Timecode.format(seconds: session.timeline.totalSeconds)))")
        }
        session.jump(to: target, kind: kind)
    }

    static func itemRangeError(_ session: PlayerSession) -> PlayerError {
        PlayerError("\(session.book.title) has items 1-\(session.timeline.items.count)")
    }

    private func goto(item: Int, seconds: Double) throws -> PlayerOutcome {
        guard session.timeline.items.indices.contains(item) else { throw Self.itemRangeError(session) }
        if let length = session.timeline.items[item].seconds, seconds >= length {
            throw PlayerError("\(Timecode.format(seconds: seconds)) is past the end of item \(item + 1) (\(Timecode.format(seconds: length)))")
        }
        session.jump(to: session.timeline.position(item: item, seconds: seconds), kind: .beforeItemJump)
        return .moved(Place(session))
    }

    /// The next item in the play order (in shuffle, the plan's next; with `repeat book`, the
    /// first after the last).
    private func nextItem() throws -> PlayerOutcome {
        guard let next = session.plainOrder.next(after: session.position.item, count: session.timeline.items.count) else {
            throw PlayerError("this is the last item")
        }
        session.jump(to: PlaybackPosition(item: next, frame: 0), kind: .beforeItemJump)
        return .moved(Place(session))
    }

    /// Like a CD player: back to the start of this item, unless within its first 3 seconds; then
    /// the item before in the play order. Its start is where it is heard from: after an intro
    /// left out (counted from the top, `prev` would never leave an item with an intro).
    private func previousItem() throws -> PlayerOutcome {
        let here = session.position
        var target = here.item
        let start = session.timeline.audibleRange(ofItem: here.item, trim: session.settings.itemTrim).start
        if session.timeline.seconds(inItem: PlaybackPosition(item: here.item, frame: here.frame - start)) < 3 {
            target = session.plainOrder.previous(before: here.item, count: session.timeline.items.count) ?? here.item
        }
        session.jump(to: PlaybackPosition(item: target, frame: 0), kind: .beforeItemJump)
        return .moved(Place(session))
    }

    private func chapter(_ target: ChapterTarget) throws -> PlayerOutcome {
        let chapters = session.timeline.chapters
        guard !chapters.isEmpty else { throw PlayerError("\(session.book.title) has no chapters") }
        let current = session.timeline.chapterIndex(at: session.position)
        let choices = "use next, prev, a name, or 1–\(chapters.count)"
        let index: Int
        switch target {
        case .next:
            index = (current ?? -1) + 1
            guard index < chapters.count else {
                throw PlayerError("already in the last chapter (\(chapters.count) of \(chapters.count))" + (chapters.count > 1 ? "; 'chapter prev' goes back" : ""))
            }
        case .previous:
            // Back to the start of this chapter, unless within its first 3 seconds (as heard: a
            // chapter starting in an intro left out starts where the intro ends).
            guard let current else { throw PlayerError("this is before the first chapter; \(choices)") }
            let start = chapters[current]
            let heardFrom = max(start.startFrame, session.timeline.audibleRange(ofItem: start.item, trim: session.settings.itemTrim).start)
            let into = session.position.item == start.item
                ? Double(session.position.frame - heardFrom) / Double(session.timeline.items[start.item].sampleRate) : 3
            index = into >= 3 || current == 0 ? current : current - 1
        case let .number(number):
            guard number >= 1, number <= chapters.count else {
                throw PlayerError("there is no chapter \(number); \(choices)")
            }
            index = number - 1
        case let .named(text):
            index = try ChapterTitles(chapters.map(\.title)).index(matching: text, choices: choices)
        }
        session.jump(to: PlaybackPosition(item: chapters[index].item, frame: chapters[index].startFrame), kind: .beforeChapterJump)
        return .moved(Place(session))
    }

    private func undo() throws -> PlayerOutcome {
        guard let last = try library.bookmarks.popLastJump(bookId: session.book.id!),
              let item = session.mediaIds.firstIndex(of: last.mediaId) else {
            throw PlayerError("no jump to undo")
        }
        // Not a jump of its own: undoing twice goes further back, not forth.
        session.jump(to: PlaybackPosition(item: item, frame: last.frame), kind: nil)
        return .undone(Place(session))
    }
}
