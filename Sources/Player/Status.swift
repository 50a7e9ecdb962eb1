import Foundation
public import Library
import PlayerCore

/// Where the book loaded stands, as `status` and observers (the screen, MPRIS) compare it. Its
/// JSON form is the raw value ("playing").
public enum BookState: String, Codable, Equatable, Sendable {
    case playing, paused, stopped
    /// Played to its end (`play` starts it again, or the queue's next book).
    case finished
}

/// Whose setting applies to the book loaded: its own, or the listener's default (`set speed`).
/// Its JSON form is the raw value ("book").
public enum SettingSource: String, Codable, Equatable, Sendable {
    case book
    case `default`
}

/// What `status` reports. Times are seconds; nil when unknown (shown as `--:--`; left out of the
/// JSON). Typed values throughout; the JSON form (`json`, and the socket's events) is made from it
/// at the edge, with the same strings as ever ("state":"playing").
public struct Status: Codable, Equatable, Sendable {
    public var book: String
    public var author: String?
    public var bookId: Int64
    public var item: String
    public var itemNumber: Int
    public var itemCount: Int
    public var chapter: String?
    public var chapterNumber: Int?
    public var chapterCount: Int
    /// Where the current chapter starts in its item, and its length (to the next chapter or the
    /// end of the item), in seconds: MPRIS describes the chapter as the track.
    public var chapterStart: Double?
    public var chapterDuration: Double?
    /// The chapter is a whole file of a book of many files without chapter marks. Optional so
    /// that an older player's status (a daemon of another version) still decodes: nil there.
    public var chapterIsWholeItem: Bool?
    public var itemPosition: Double
    /// The same place exactly: the frame in the item, at its sample rate (`itemSampleRate`).
    /// Optional, like the later fields, so an older player's status decodes.
    public var itemFrame: Int64?
    public var itemSampleRate: Int?
    public var itemDuration: Double?
    public var bookPosition: Double?
    public var bookDuration: Double?
    /// As it will be heard: at the current speed, and with skip silence on, less the silence
    /// expected to be cut (`SilenceSavings`).
    public var timeLeft: Double?
    public var speed: Double
    /// Which speed applies: "book" (the book's own) or "default" (the listener's, `set speed`).
    /// Optional, like the skip fields, only so that a status from an older player still decodes.
    public var speedSource: SettingSource?
    /// What `+`/`-` skip, in seconds, and whose setting it is ("book" or "default").
    public var skipInterval: Double?
    public var skipSource: SettingSource?
    /// Percent; above 100 is a boost (`SettingText.volumeLabel`).
    public var volume: Double
    public var output: String
    public var state: BookState
    /// The sleep timer; nil when off. (JSON: "12:34 left", "end of chapter"...)
    public var sleep: SleepState?
    public var repeatMode: RepeatMode
    public var shuffle: Bool
    /// Evening out loudness: "gain +4.5 dB", "loudness off", "loudness measuring", "loudness not
    /// measured yet"; and the gain applied, in dB, once measured. Optional, like the fields above.
    public var loudness: String?
    public var loudnessGain: Double?
    /// Books waiting in the queue.
    public var queue = 0
    /// Skip silence's shortest silence shortened, in milliseconds; nil when off. Optional, as
    /// the other later fields, so an older player's status decodes.
    public var skipSilenceMs: Int?
    /// The fraction of the book's time skip silence has been cutting (the estimate `timeLeft`
    /// uses); nil while too little was heard, or when off.
    public var silenceSkippedFraction: Double?
    /// Intro and outro skipping when on: "intro 30s, outro 45s"; nil when off. Optional, as
    /// the other later fields.
    public var introOutro: String?
    /// Where playing the item stops, in seconds into it, when an outro is left out; nil
    /// otherwise (its end).
    public var itemAudibleEnd: Double?
    /// The book's cover extracted to a file, when an observer asked for covers (MPRIS's artUrl).
    public var cover: String?
    /// Where the other devices syncing with this library are in the book, newest listening
    /// first; nil when none has a place in it (or sync is off).
    public var elsewhere: [Elsewhere]?

    /// Another device's place in the book.
    public struct Elsewhere: Codable, Equatable, Sendable {
        /// What the device calls itself (its id when its journal does not say).
        public var device: String
        /// Seconds into the whole book; nil when an item's length is unknown.
        public var position: Double?
        /// When it listened there: seconds since 1970 (UTC).
        public var listenedAt: Double

        public init(_ place: SyncBookStatus.Place) {
            device = place.deviceName ?? place.device.text
            position = place.seconds
            listenedAt = place.listenedAt.timeIntervalSince1970
        }
    }

    init(session: PlayerSession) {
        let timeline = session.timeline
        let position = session.position
        let item = timeline.items[position.item]
        let chapters = timeline.chapters
        let chapterIndex = timeline.chapterIndex(at: position)
        book = session.book.title
        author = session.book.author
        bookId = session.book.id!
        self.item = item.title
        itemNumber = position.item + 1
        itemCount = timeline.items.count
        chapter = chapterIndex.map { chapters[$0].title }
        chapterNumber = chapterIndex.map { $0 + 1 }
        chapterCount = chapters.count
        // Only a chapter of the item playing (an item without chapters after one with them is
        // not inside that chapter as far as a track goes).
        if let chapterIndex, chapters[chapterIndex].item == position.item {
            let start = chapters[chapterIndex]
            let rate = Double(item.sampleRate)
            let endFrame = timeline.endFrame(ofChapter: chapterIndex)
            chapterIsWholeItem = start.isWholeItem
            chapterStart = Double(start.startFrame) / rate
            chapterDuration = endFrame.map { Double($0 - start.startFrame) / rate }
        }
        itemPosition = timeline.seconds(inItem: position)
        itemFrame = position.frame
        itemSampleRate = item.sampleRate
        itemDuration = item.seconds
        bookPosition = timeline.bookSeconds(position)
        bookDuration = timeline.totalSeconds
        speed = session.settings.speed
        speedSource = session.settings.ownSpeed == nil ? .default : .book
        skipInterval = session.settings.skipIntervalSeconds
        skipSource = session.settings.ownSkipIntervalSeconds == nil ? .default : .book
        volume = session.settings.volume
        loudness = session.aids.loudness.text
        if case let .measured(_, gain) = session.aids.loudness { loudnessGain = gain }
        let (total, here, speed) = (timeline.totalSeconds, timeline.bookSeconds(position), session.settings.speed)
        let skipping = session.settings.skipSilence != .off
        let trim = session.settings.itemTrim
        // As heard: the intros and outros still ahead are not heard at all.
        let sourceLeft = trim.isNone ? total.flatMap { total in here.map { max(0, total - $0) } }
                                     : timeline.audibleSecondsLeft(from: position, trim: trim)
        timeLeft = sourceLeft.map { session.aids.silence.heardSeconds(ofSourceSeconds: $0, speed: speed, skipping: skipping) }
        introOutro = IntroOutroText.statusText(intro: trim.introSeconds, outro: trim.outroSeconds)
        if trim.outroSeconds > 0, let end = timeline.audibleRange(ofItem: position.item, trim: trim).end, end != item.frames {
            itemAudibleEnd = Double(end) / Double(item.sampleRate)
        }
        if case let .on(minimumMs) = session.settings.skipSilence {
            skipSilenceMs = minimumMs
            silenceSkippedFraction = session.aids.silence.skippedFraction
        }
        output = session.outputName
        sleep = session.sleepTimer.state
        repeatMode = session.settings.repeatMode
        shuffle = session.settings.shuffle
        state = switch session.state {
        case _ where session.hasEnded: .finished
        case .playing: .playing
        case .paused: .paused
        case .stopped: .stopped
        }
    }

    /// The status as `status` shows it, a few lines.
    public var text: String {
        func time(_ seconds: Double?) -> String { Timecode.format(seconds: seconds) }
        var lines = ["\(book) — \(state.rawValue)",
                     "item \(itemNumber)/\(itemCount): \(item)  \(time(itemPosition)) / \(time(itemDuration))"]
        if let chapter, let chapterNumber {
            lines.append("chapter \(chapterNumber)/\(chapterCount): \(chapter)  \(time(chapterPosition)) / \(time(chapterDuration))")
        } else if chapterCount > 0 {
            lines.append("chapter -/\(chapterCount)")
        }
        let heard = (skipSilenceMs == nil ? "" : " skipping silence") + (introOutro.map { " skipping \($0)" } ?? "")
        lines.append("book \(time(bookPosition)) / \(time(bookDuration)), \(time(timeLeft)) left at \(Self.speedText(speed))\(heard)")
        let skip = skipInterval.map { "  skip \(SettingText.secondsText($0)) (\(Self.sourceText(skipSource)))" } ?? ""
        lines.append("speed \(Self.speedText(speed)) (\(Self.sourceText(speedSource)))\(skip)  volume \(SettingText.volumeLabel(volume))  output \(output)\(loudness.map { "  \($0)" } ?? "")")
        lines.append("repeat \(repeatMode.rawValue)  shuffle \(shuffle ? "on" : "off")  sleep \(sleep?.text ?? "off")  queue \(queue)")
        if let elsewhere, !elsewhere.isEmpty {
            lines.append("elsewhere: " + elsewhere.map { place in
                "\(place.device) \(time(place.position)) (\(SyncText.when(Date(timeIntervalSince1970: place.listenedAt))))"
            }.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }

    /// Seconds into the chapter of the item playing; nil outside one.
    public var chapterPosition: Double? { chapterStart.map { max(0, itemPosition - $0) } }

    /// What is left of the chapter (else of the item), at the speed; nil when unknown.
    public var chapterTimeLeft: Double? {
        // As heard, like `timeLeft`: less the silence skip silence is expected to cut.
        // and not counting an outro left out.
        let kept = 1 - (silenceSkippedFraction ?? 0)
        let stop = itemAudibleEnd ?? .infinity
        if let chapterDuration, let chapterStart { return max(0, min(chapterStart + chapterDuration, stop) - itemPosition) * kept / speed }
        return itemDuration.map { max(0, min($0, stop) - itemPosition) * kept / speed }
    }

    public static func speedText(_ speed: Double) -> String { SettingText.speedText(speed) }

    /// "default" or "this book": whose setting applies.
    static func sourceText(_ source: SettingSource?) -> String { source == .book ? "this book" : "default" }

    /// One line of JSON (`status --json`).
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data("null".utf8), as: UTF8.self)
    }
}
