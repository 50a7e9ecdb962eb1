public import Foundation
public import Library
import PlayerCore

/// How sync reads, the same in `abplayer sync`, the REPL and a player's notices: the lines to
/// show. Titles and device names come from other machines' files: a front end shows each line
/// through its terminal filter (`TerminalText`), as it does every notice.
public enum SyncText {
    /// "laptop" (its own name) or its id.
    static func name(_ device: DeviceID, _ name: String?) -> String { name ?? device.text }

    /// "today 20:01", "yesterday 22:10", "2026-11-20 08:00", in local time; written by hand
    /// (localtime_r) for the reason StoredDate gives: DateFormatter loads ICU for a fixed format.
    public static func when(_ date: Date, now: Date = Date()) -> String { Days(now: now).when(date) }

    /// Today and yesterday in local time, worked out once for all the lines of a report (for each
    /// line, with String(format:), they were most of a status of 10,000 books on 100 devices).
    struct Days {
        let today: tm
        let yesterday: tm

        init(now: Date) {
            today = Self.local(now)
            yesterday = Self.local(now.addingTimeInterval(-86_400))
        }

        static func local(_ date: Date) -> tm {
            var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
            var parts = tm()
            localtime_r(&seconds, &parts)
            return parts
        }

        func when(_ date: Date) -> String {
            let then = Self.local(date)
            func padded(_ number: Int32, _ width: Int) -> String {
                let digits = String(number)
                return String(repeating: "0", count: max(0, width - digits.count)) + digits
            }
            let clock = padded(then.tm_hour, 2) + ":" + padded(then.tm_min, 2)
            if then.tm_year == today.tm_year && then.tm_yday == today.tm_yday { return "today \(clock)" }
            if then.tm_year == yesterday.tm_year && then.tm_yday == yesterday.tm_yday { return "yesterday \(clock)" }
            return padded(then.tm_year + 1900, 4) + "-" + padded(then.tm_mon + 1, 2) + "-" + padded(then.tm_mday, 2) + " " + clock
        }
    }

    /// How many other devices `sync status` shows under each book, those that listened last.
    public static let devicesShown = 5

    /// A book's line and one line per device: where each is, and when it listened there. Of the
    /// other devices, the `devicesPerBook` that listened last (nil: every one), and how many more:
    /// a listener asks where they were last, and a hundred lines a book answer nobody.
    public static func statusLines(_ books: [SyncBookStatus], now: Date = Date(), devicesPerBook: Int? = devicesShown) -> [String] {
        let days = Days(now: now)
        return books.flatMap { book -> [String] in
            let shown = devicesPerBook.map { book.elsewhere.prefix($0) } ?? book.elsewhere[...]
            let places = (book.here.map { [("here", $0)] } ?? []) + shown.map { (name($0.device, $0.deviceName), $0) }
            let width = places.map(\.0.count).max() ?? 0
            let more = book.elsewhere.count - shown.count + book.moreElsewhere
            return [book.title] + places.map { label, place in
                "  " + label + String(repeating: " ", count: width - label.count) + "  "
                    + Timecode.format(seconds: place.seconds) + "  " + days.when(place.listenedAt)
            } + (more > 0 ? ["  and \(more) other device\(more == 1 ? "" : "s") ('abplayer sync status --all' lists every one)"] : [])
        }
    }

    /// "syncing through FOLDER as NAME (DEVICE)", or "not syncing".
    public static func folderLine(_ settings: SyncSettings) -> String {
        settings.folder.map { "syncing through \($0) as \(settings.deviceName) (\(settings.device))" } ?? "not syncing"
    }

    /// What `sync status` says: the folder, then each book's lines (or that there are none yet).
    public static func statusReport(_ settings: SyncSettings, _ books: [SyncBookStatus], now: Date = Date(),
                                    devicesPerBook: Int? = devicesShown) -> [String] {
        let lines = statusLines(books, now: now, devicesPerBook: devicesPerBook)
        return [folderLine(settings)] + (lines.isEmpty ? ["no other device has a place in any of these books yet"] : lines)
    }

    /// What `sync now` says: each change, or that nothing came in and how much went out.
    public static func exchangeReport(_ report: SyncExchangeReport, now: Date = Date()) -> [String] {
        let lines = reportLines(report, now: now)
        return lines.isEmpty ? ["in step with the other devices (\(report.written) change\(report.written == 1 ? "" : "s") written)"] : lines
    }

    /// A book not playing that another device's later listening moved.
    public static func movedLine(_ move: SyncExchangeReport.Move, now: Date = Date()) -> String {
        "\(move.title): now at \(Timecode.format(seconds: move.seconds)), where \(name(move.claim.device, move.deviceName)) "
            + "listened \(when(move.claim.listenedAt, now: now))"
            + (move.leftUndoPoint ? " (the place before is kept as an automatic bookmark)" : "")
    }

    /// The book loaded is never moved: where another device listened later, offered; with
    /// `jumpOnStart`, playing goes there.
    public static func offerLine(_ move: SyncExchangeReport.Move, jumpOnStart: Bool = false, now: Date = Date()) -> String {
        "\(move.title): \(name(move.claim.device, move.deviceName)) was at \(Timecode.format(seconds: move.seconds)) "
            + "(\(when(move.claim.listenedAt, now: now))); "
            + (jumpOnStart ? "play goes there ('sync auto-jump off' stays here)" : "'sync jump' to go there")
    }

    /// The book loaded, started again, went to another device's later place.
    public static func jumpedLine(_ move: SyncExchangeReport.Move, now: Date = Date()) -> String {
        "\(move.title): on at \(Timecode.format(seconds: move.seconds)), where \(name(move.claim.device, move.deviceName)) "
            + "listened \(when(move.claim.listenedAt, now: now)); 'undo' goes back"
    }

    /// "laptop 3:12:40 (yesterday 22:10)": another device's place, as `status` and `ls` show it.
    public static func placeText(_ place: SyncBookStatus.Place, now: Date = Date()) -> String {
        "\(name(place.device, place.deviceName)) \(Timecode.format(seconds: place.seconds)) (\(when(place.listenedAt, now: now)))"
    }

    /// "this computer is called laptop ...": its name in the sync folder, and how to change it.
    public static func nameLine(_ settings: SyncSettings) -> String {
        "this computer is called \(settings.deviceName) on the other computers (device \(settings.device)); 'sync name NAME' renames it"
    }

    /// "auto-jump on: ...": what the setting does.
    public static func jumpOnStartLine(_ settings: SyncSettings) -> String {
        settings.jumpOnStart
            ? "sync auto-jump on: a book loaded here goes to another device's later place when you play it (with an undo point)"
            : "sync auto-jump off: another device's later place in the book loaded is said; 'sync jump' goes there"
    }

    /// What an exchange did, a line a change; nothing when nothing changed.
    public static func reportLines(_ report: SyncExchangeReport, now: Date = Date()) -> [String] {
        var lines = report.moved.map { movedLine($0, now: now) }
        if let waiting = report.waiting { lines.append(offerLine(waiting, now: now)) }
        let bookmarks = [(report.bookmarksAdded, "added"), (report.bookmarksChanged, "changed"), (report.bookmarksRemoved, "removed")]
            .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        if !bookmarks.isEmpty { lines.append("bookmarks from other devices: " + bookmarks.joined(separator: ", ")) }
        if report.finishedChanged > 0 {
            lines.append("\(report.finishedChanged) book\(report.finishedChanged == 1 ? "" : "s") marked finished or not, as on another device")
        }
        if report.settingsChanged > 0 {
            lines.append("\(report.settingsChanged) book\(report.settingsChanged == 1 ? "" : "s") set as on another device "
                + "(speed, skips, sleep timer, repeat, shuffle; the volume stays this device's)")
        }
        if report.chaptersChanged > 0 {
            lines.append("\(report.chaptersChanged) book\(report.chaptersChanged == 1 ? "" : "s") with chapters as on another device")
        }
        return lines
    }
}
