import Foundation
import PlayerCore

/// What `status` reports. Times are seconds; nil when unknown (shown as `--:--`, `null` in JSON).
struct Status: Codable, Equatable {
    var book: String
    var bookId: Int64
    var item: String
    var itemNumber: Int
    var itemCount: Int
    var chapter: String?
    var chapterNumber: Int?
    var chapterCount: Int
    var itemPosition: Double
    var itemDuration: Double?
    var bookPosition: Double?
    var bookDuration: Double?
    /// At the current speed.
    var timeLeft: Double?
    var speed: Double
    var volume: Double
    var output: String
    var state: String
    /// "12:34 left", "end of chapter", "end of item", "fading out"; nil when off.
    var sleep: String?
    var repeatMode: String
    var shuffle: Bool
    /// Books waiting in the queue.
    var queue = 0

    init(session: PlayerSession) {
        let timeline = session.timeline
        let position = session.position
        let item = timeline.items[position.item]
        let chapters = timeline.chapters
        let chapterIndex = timeline.chapterIndex(at: position)
        book = session.book.title
        bookId = session.book.id!
        self.item = item.title
        itemNumber = position.item + 1
        itemCount = timeline.items.count
        chapter = chapterIndex.map { chapters[$0].title }
        chapterNumber = chapterIndex.map { $0 + 1 }
        chapterCount = chapters.count
        itemPosition = timeline.seconds(inItem: position)
        itemDuration = item.seconds
        bookPosition = timeline.bookSeconds(position)
        bookDuration = timeline.totalSeconds
        speed = session.settings.speed
        volume = (session.settings.volume * 100).rounded()
        let (total, here, speed) = (timeline.totalSeconds, timeline.bookSeconds(position), session.settings.speed)
        timeLeft = total.flatMap { total in here.map { max(0, total - $0) / speed } }
        output = session.outputName
        sleep = session.sleepTimer.description
        repeatMode = session.settings.repeatMode.rawValue
        shuffle = session.settings.shuffle
        state = switch session.state {
        case .playing: "playing"
        case .paused: "paused"
        case .stopped: "stopped"
        }
    }

    var text: String {
        func time(_ seconds: Double?) -> String { Timecode.format(seconds: seconds) }
        var lines = ["\(book) — \(state)",
                     "item \(itemNumber)/\(itemCount): \(item)  \(time(itemPosition)) / \(time(itemDuration))"]
        if let chapter, let chapterNumber {
            lines.append("chapter \(chapterNumber)/\(chapterCount): \(chapter)")
        } else if chapterCount > 0 {
            lines.append("chapter -/\(chapterCount)")
        }
        lines.append("book \(time(bookPosition)) / \(time(bookDuration)), \(time(timeLeft)) left at \(Self.speedText(speed))")
        lines.append("speed \(Self.speedText(speed))  volume \(Int(volume))%  output \(output)")
        lines.append("repeat \(repeatMode)  shuffle \(shuffle ? "on" : "off")  sleep \(sleep ?? "off")  queue \(queue)")
        return lines.joined(separator: "\n")
    }

    static func speedText(_ speed: Double) -> String { String(format: "%.2gx", speed) }

    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data("null".utf8), as: UTF8.self)
    }
}
