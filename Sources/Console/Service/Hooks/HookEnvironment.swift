import Foundation
import Player
import PlayerCore

/// The variables a hook gets, besides the player's own environment: stable names, documented
/// in docs/guide.md ("Hooks"). Every one is set for every event; empty when unknown (an author not
/// tagged, a book without chapters) or not the event's (a bookmark's note for `paused`), and the
/// book's when no book is loaded (a sync with none).
enum HookEnvironment {
    /// Every name set, so none inherited from the player's environment can pass for ours.
    static let names = ["ABPLAYER_EVENT", "ABPLAYER_STATE", "ABPLAYER_BOOK", "ABPLAYER_BOOK_ID", "ABPLAYER_AUTHOR",
                        "ABPLAYER_CHAPTER", "ABPLAYER_CHAPTER_NUMBER", "ABPLAYER_CHAPTER_COUNT",
                        "ABPLAYER_ITEM", "ABPLAYER_ITEM_NUMBER", "ABPLAYER_ITEM_COUNT", "ABPLAYER_FILE",
                        "ABPLAYER_POSITION", "ABPLAYER_POSITION_TEXT", "ABPLAYER_ITEM_POSITION",
                        "ABPLAYER_DURATION", "ABPLAYER_DURATION_TEXT", "ABPLAYER_TIME_LEFT", "ABPLAYER_SPEED", "ABPLAYER_OUTPUT",
                        "ABPLAYER_BOOKMARK_NUMBER", "ABPLAYER_BOOKMARK_NOTE", "ABPLAYER_MESSAGE"]

    /// The player's environment without our names: what every hook's starts from.
    static func inherited(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        let ours = Set(names)
        return environment.filter { !ours.contains($0.key) }.map { "\($0.key)=\($0.value)" }
    }

    /// `NAME=value` for each of `names`, for `event`.
    static func variables(_ event: ListeningEvent) -> [String] {
        let status = event.status
        func number(_ value: Int?) -> String { value.map(String.init) ?? "" }
        func seconds(_ value: Double?) -> String { value.map { String(format: "%.3f", $0) } ?? "" }
        func text(_ value: Double?) -> String { value == nil ? "" : Timecode.format(seconds: value) }
        let values: [String: String] = [
            "ABPLAYER_EVENT": event.kind.rawValue,
            "ABPLAYER_STATE": status?.state.rawValue ?? "",
            "ABPLAYER_BOOK": status?.book ?? "",
            "ABPLAYER_BOOK_ID": status.map { String($0.bookId) } ?? "",
            "ABPLAYER_AUTHOR": status?.author ?? "",
            "ABPLAYER_CHAPTER": status?.chapter ?? "",
            "ABPLAYER_CHAPTER_NUMBER": number(status?.chapterNumber),
            "ABPLAYER_CHAPTER_COUNT": number(status?.chapterCount),
            "ABPLAYER_ITEM": status?.item ?? "",
            "ABPLAYER_ITEM_NUMBER": number(status?.itemNumber),
            "ABPLAYER_ITEM_COUNT": number(status?.itemCount),
            "ABPLAYER_FILE": event.file ?? "",
            "ABPLAYER_POSITION": seconds(status?.bookPosition),
            "ABPLAYER_POSITION_TEXT": text(status?.bookPosition),
            "ABPLAYER_ITEM_POSITION": seconds(status?.itemPosition),
            "ABPLAYER_DURATION": seconds(status?.bookDuration),
            "ABPLAYER_DURATION_TEXT": text(status?.bookDuration),
            "ABPLAYER_TIME_LEFT": seconds(status?.timeLeft),
            "ABPLAYER_SPEED": status.map { String($0.speed) } ?? "",
            "ABPLAYER_OUTPUT": status?.output ?? "",
            "ABPLAYER_BOOKMARK_NUMBER": event.bookmark?.number.description ?? "",
            "ABPLAYER_BOOKMARK_NOTE": event.bookmark?.note ?? "",
            "ABPLAYER_MESSAGE": event.message ?? "",
        ]
        return names.map { "\($0)=\(values[$0] ?? "")" }
    }
}
