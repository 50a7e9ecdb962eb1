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

    /// The full screen: every line at most `size.columns` cells, at most `size.rows` lines.
    func lines(size: ScreenSize, style: ScreenStyle) -> [String] {
        let width = max(1, size.columns)
        func fit(_ text: String) -> String { TextFit.truncate(text, to: width) }
        let playing = status.state == .playing
        // The state, big and unmissable: a reverse-video block (colour: green playing, yellow paused).
        let stateWord = switch status.state {
        case .playing: "▶  PLAYING"
        case .paused: "❚❚ PAUSED"
        case .finished: "■  THE END"
        case .stopped: "■  STOPPED"
        }
        let stateBlock = style.styled(" \(fit(stateWord)) ", playing ? "1;7;32" : "1;7;33")
        // A bar with its times after it: "[████░░░░] 1:23 / 10:00".
        func bar(_ label: String, _ position: Double?, _ duration: Double?) -> String {
            let times = "\(label) \(time(position)) / \(time(duration))"
            let barWidth = width - times.count - 3
            let share = duration.flatMap { d in position.map { d > 0 ? $0 / d : 0 } }
            guard barWidth >= 5 else { return fit(times) }
            return "[\(TextFit.bar(share, width: barWidth, ascii: false))] \(times)"
        }
        var lines = [
            stateBlock,
            "",
            style.styled(fit(status.book), "1"),
            fit("item \(status.itemNumber)/\(status.itemCount): \(status.item)"),
        ]
        if let chapterText, status.chapterIsWholeItem != true { lines.append(fit(chapterText)) }
        lines.append("")
        if hasChapterOfItsOwn { lines.append(bar("chapter", status.chapterPosition, status.chapterDuration)) }
        let leftIn = hasChapterOfItsOwn ? "chapter" : "item"
        lines += [
            bar("item", status.itemPosition, status.itemDuration),
            bar("book", status.bookPosition, status.bookDuration),
            fit("\(time(status.chapterTimeLeft)) left in \(leftIn), \(time(status.timeLeft)) in book at \(Status.speedText(status.speed))"
                + (status.skipSilenceMs == nil ? "" : ", silences skipped")),
            "",
            fit("speed \(Status.speedText(status.speed))  volume \(SettingText.volumeLabel(status.volume))\(loudnessText)  output \(status.output)"),
            fit("sleep \(status.sleep?.text ?? "off")"),
            "",
        ] + (message == nil ? [""] : messageLines(width: width).map { style.styled($0, "1") })
        // Keys at the bottom; what does not fit is dropped from the top of the details.
        let help = Self.keyHelp(keys, columns: width).map { style.styled(fit($0), "2") }
        let room = max(0, size.rows - help.count)
        return Array(lines.prefix(room)) + help
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
