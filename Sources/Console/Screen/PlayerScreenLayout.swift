import Player
import PlayerCore

/// The player screen as lines of text: a `Status` laid out for a terminal size. Pure, so the
/// layout is tested without a terminal.
struct PlayerScreenLayout {
    let status: Status
    /// The last notice or error, shown on the message line.
    var message: String?

    /// The keys the screen lists; a screen attached over the control socket has fewer.
    var keys = Self.keys
    /// Draws the book's cover into a box of at most so many cells, to show beside the text when
    /// the window is wide enough (called only then); nil, or nil from it, when the book has none
    /// (or the screen is attached elsewhere).
    var cover: ((_ maxColumns: Int, _ maxRows: Int) -> CoverArt?)?

    static let keys = ["space play/pause", "←/→ skip", "h/l 1 min", "↑/↓ volume", "[/] speed", "n/p item",
                       "c/C chapter", "b bookmark", "B bookmarks", "u undo", "s sleep", "a art", "L library", "q back"]

    /// What a screen attached to a player over its control socket offers: every key that runs a
    /// command (`PlayerScreenKeys`); the views drawn from the library (cover, bookmarks, the
    /// library) are the player's own terminal's.
    static let attachedKeys = keys.filter { !["B bookmarks", "a art"].contains($0) }

    /// The keys in lines of at most `columns` cells, whole keys only: on a narrow window they
    /// take two lines rather than lose the last ones (`q back` was cut off at 120 columns).
    static func keyHelp(_ keys: [String] = keys, columns: Int) -> [String] {
        TextFit.wrap(keys, separator: "  ", width: columns)
    }

    private func time(_ seconds: Double?) -> String { Timecode.format(seconds: seconds) }

    /// A chapter that is not simply the item: a file of a many-file book is shown as the item.
    private var hasChapterOfItsOwn: Bool { status.chapter != nil && status.chapterStart != nil && status.chapterIsWholeItem != true }

    private var chapterText: String? {
        if let chapter = status.chapter, let number = status.chapterNumber {
            return "chapter \(number)/\(status.chapterCount): \(chapter)"
        }
        return status.chapterCount > 0 ? "chapter -/\(status.chapterCount)" : nil
    }

    /// The narrowest text beside a cover: on a narrower window the cover goes, never the bars.
    static let textColumnsBesideCover = 48
    /// A cover smaller than this is not drawn.
    static let smallestCover = ScreenSize(columns: 8, rows: 4)
    /// The blank cells between the cover and the text.
    static let coverGap = 2

    /// The full screen: every line at most `size.columns` cells, at most `size.rows` lines. What
    /// does not fit goes in this order: blank lines, the key help, the cover (by its width or its
    /// height), then the details by `Keep`; the book's times and bar go last.
    func lines(size: ScreenSize, style: ScreenStyle) -> [String] {
        let width = max(1, size.columns)
        // The message and the keys take the whole width, below the cover if one shows.
        let help = Self.keyHelp(keys, columns: width).map { style.styled(TextFit.truncate($0, to: width), "2") }
        let bottom = [messageBlock(width: width, style: style), Block(lines: help, keep: .keys, isDetail: false)]
        let plain = Block.fit(details(width: width, style: style) + bottom, height: size.rows)
        let coverColumns = width - Self.coverGap - Self.textColumnsBesideCover
        let detailRows = plain.filter(\.isDetail).reduce(0) { $0 + $1.lines.count }
        guard let cover, coverColumns >= Self.smallestCover.columns, detailRows >= Self.smallestCover.rows else {
            return plain.flatMap(\.lines)
        }
        // The cover beside the details: it takes the columns they can spare, and they the columns
        // the picture leaves (its shape is kept).
        guard let art = cover(coverColumns, detailRows), art.columns >= Self.smallestCover.columns, art.lines.count >= Self.smallestCover.rows else {
            return plain.flatMap(\.lines)
        }
        let fitted = Block.fit(details(width: width - Self.coverGap - art.columns, style: style) + bottom, height: size.rows)
        let beside = fitted.filter(\.isDetail).flatMap(\.lines).enumerated().map { row, line in
            (row < art.lines.count ? art.lines[row] : String(repeating: " ", count: art.columns))
                + String(repeating: " ", count: Self.coverGap) + line
        }
        return beside + fitted.filter { !$0.isDetail }.flatMap(\.lines)
    }

    /// The message (or a blank line keeping its place), the whole width of the screen.
    private func messageBlock(width: Int, style: ScreenStyle) -> Block {
        guard message != nil else { return Block(lines: [""], keep: .spacing, isDetail: false) }
        return Block(lines: messageLines(width: width).map { style.styled($0, "1") }, keep: .message, isDetail: false)
    }

    /// The details (state, titles, bars, times, settings) at `width`, top to bottom, each with
    /// what it is worth keeping.
    private func details(width: Int, style: ScreenStyle) -> [Block] {
        func fit(_ text: String) -> String { TextFit.truncate(text, to: width) }
        let playing = status.state == .playing
        // The state, big and unmissable: a reverse-video block (colour: green playing, yellow paused).
        let stateWord = switch status.state {
        case .playing: "▶  PLAYING"
        case .paused: "❚❚ PAUSED"
        case .finished: "■  THE END"
        case .stopped: "■  STOPPED"
        }
        // A bar with its times after it: "[████░░░░] 1:23 / 10:00"; the times alone when narrow.
        func bar(_ label: String, _ position: Double?, _ duration: Double?) -> String {
            let times = "\(label) \(time(position)) / \(time(duration))"
            let barWidth = width - times.count - 3
            let share = duration.flatMap { d in position.map { d > 0 ? $0 / d : 0 } }
            guard barWidth >= 5 else { return fit(times) }
            return "[\(TextFit.bar(share, width: barWidth, ascii: false))] \(times)"
        }
        // One file: the item is the book, so its bar would only repeat the book's.
        let manyItems = status.itemCount > 1
        let spacing = Block(lines: [""], keep: .spacing)
        var blocks = [
            Block(lines: [style.styled(" \(fit(stateWord)) ", playing ? "1;7;32" : "1;7;33")], keep: .state),
            spacing,
            Block(lines: [style.styled(fit(status.book), "1")], keep: .title),
        ]
        if let author = status.author, !author.isEmpty { blocks.append(Block(lines: [fit("by \(author)")], keep: .author)) }
        // A one-file book's item is named only when its title says more than the book's.
        if manyItems || status.item != status.book {
            blocks.append(Block(lines: [fit("item \(status.itemNumber)/\(status.itemCount): \(status.item)")], keep: .item))
        }
        if let chapterText, status.chapterIsWholeItem != true { blocks.append(Block(lines: [fit(chapterText)], keep: .chapter)) }
        blocks.append(spacing)
        if hasChapterOfItsOwn { blocks.append(Block(lines: [bar("chapter", status.chapterPosition, status.chapterDuration)], keep: .chapter)) }
        if manyItems { blocks.append(Block(lines: [bar("item", status.itemPosition, status.itemDuration)], keep: .item)) }
        blocks.append(Block(lines: [bar("book", status.bookPosition, status.bookDuration)], keep: .book))
        let silences = (status.skipSilenceMs == nil ? "" : ", silences skipped") + (status.introOutro.map { ", \($0) skipped" } ?? "")
        let timeLeft = if hasChapterOfItsOwn || manyItems {
            "\(time(status.chapterTimeLeft)) left in \(hasChapterOfItsOwn ? "chapter" : "item"), \(time(status.timeLeft)) in book"
        } else {
            "\(time(status.timeLeft)) left in book"
        }
        blocks += [
            Block(lines: [fit("\(timeLeft) at \(Status.speedText(status.speed))\(silences)")], keep: .timeLeft),
            spacing,
            Block(lines: [fit("speed \(Status.speedText(status.speed))  volume \(SettingText.volumeLabel(status.volume))\(loudnessText)  output \(status.output)")],
                  keep: .settings),
            Block(lines: [fit("sleep \(status.sleep?.text ?? "off")")], keep: status.sleep == nil ? .settings : .sleep),
            spacing,
        ]
        return blocks
    }

    /// The message in at most two lines, broken between words (a jump's place line runs past 80
    /// columns); what does not fit ends the second with an ellipsis.
    func messageLines(width: Int) -> [String] {
        guard let message else { return [] }
        let lines = TextFit.wrap(message.split(separator: " ").map(String.init), separator: " ", width: width)
        guard lines.count > 2 else { return lines.map { TextFit.truncate($0, to: width) } }
        return [TextFit.truncate(lines[0], to: width), TextFit.truncate(lines[1...].joined(separator: " "), to: width)]
    }

    /// "  gain +4.5 dB", "  loudness measuring" beside the volume; nothing when loudness is off
    /// (or the status comes from a player that does not even out loudness).
    var loudnessText: String {
        guard let loudness = status.loudness, loudness != LoudnessState.off.text else { return "" }
        return "  " + loudness
    }

    /// One plain line for a dumb terminal or a script: no escape sequence, no bar.
    var plainLine: String {
        var parts = ["\(status.book) — \(status.state.rawValue)",
                     "item \(status.itemNumber)/\(status.itemCount) \(time(status.itemPosition))/\(time(status.itemDuration))"]
        if let chapterText, status.chapterIsWholeItem != true { parts.append(chapterText) }
        parts.append("book \(time(status.bookPosition))/\(time(status.bookDuration))")
        parts.append("speed \(Status.speedText(status.speed)) volume \(SettingText.volumeLabel(status.volume))")
        if let sleep = status.sleep { parts.append("sleep \(sleep.text)") }
        return parts.joined(separator: "  ")
    }
}

extension PlayerScreenLayout {
    /// What a line is worth keeping when the window is too short for all: the first cases go first.
    enum Keep: Int, Comparable {
        case spacing, keys, settings, sleep, author, timeLeft, item, title, message, state, chapter, book

        static func < (left: Keep, right: Keep) -> Bool { left.rawValue < right.rawValue }
    }

    /// Lines that stay or go together (the keys, a two-line message).
    struct Block {
        let lines: [String]
        let keep: Keep
        /// Beside the cover when one shows; the message and keys are below it, the whole width.
        var isDetail = true

        /// Those of `blocks` that fit in `height` lines, in their order: taken from the most
        /// worth keeping down (of equal worth, the highest on the screen first), a block too tall
        /// for the room left skipped (the keys, whole or not at all) and the smaller after it
        /// still taken (blank lines the keys leave room for).
        static func fit(_ blocks: [Block], height: Int) -> [Block] {
            let byWorth = blocks.indices.sorted { blocks[$0].keep > blocks[$1].keep || (blocks[$0].keep == blocks[$1].keep && $0 < $1) }
            var room = max(0, height)
            var chosen = Set<Int>()
            for index in byWorth where blocks[index].lines.count <= room {
                chosen.insert(index)
                room -= blocks[index].lines.count
            }
            return blocks.indices.filter(chosen.contains).map { blocks[$0] }
        }
    }
}
