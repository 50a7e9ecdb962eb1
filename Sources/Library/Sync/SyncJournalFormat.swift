import Foundation

/// A journal's text: one record a line, fields separated by tabs.
///
/// ```
/// abplayer-journal  2  DEVICE  NAME              the first line: the format, its version, the writer and its name
/// N  AT  NAME                                    the writer's name from AT on (version 2: `sync name` after the header)
/// B  REF  TITLE  AUTHOR  SECONDS  FP,FP,...      a book, called REF in this file from here on
/// P  REF  AT  ITEM  FRAME                        the place heard, listened at AT
/// F  REF  AT  1|0                                finished, or not finished any more
/// M  REF  AT  ID  ITEM  FRAME  KIND  CREATED  NOTE   a bookmark made or edited
/// R  REF  AT  ID                                 a bookmark removed
/// S  REF  AT  KEY=VALUE ...                      the book's settings, whole (SyncJournalFormat+SettingsChapters)
/// C  REF  AT  ITEM:FRAME:TITLE,...               the book's user chapters, whole
/// ```
/// AT and CREATED are milliseconds since 1970 (UTC); ITEM is the item's place in the book's `B`
/// line, from 0 (FP is an item's content fingerprint); an empty AUTHOR, SECONDS or NOTE is none.
/// Text fields write `\`, tab, LF and CR as `\\`, `\t`, `\n`, `\r`. REF is the book's
/// `SyncJournalFormat.reference` (the same in every file). A newer version may add fields at the
/// end of a line (ignored here) and lines of other tags (skipped, counted as not understood).
///
/// History: 1, the first; 2 adds `N` lines, so a computer renamed says so without rewriting its
/// journal (a version 1 reader skips them and keeps the header's name; a version 1 journal, with
/// no `N` line, is read as it always was).
///
/// Hand-written rather than JSON lines: JSONDecoder reads about 250,000 small lines a second on
/// this machine, and the journals of 100 devices with 10,000 books each must merge in under a
/// second; splitting bytes on tabs is ten times faster.
public enum SyncJournalFormat {
    public static let magic = "abplayer-journal"
    public static let version = 2
    /// A journal file's name ends so; the rest is the device id.
    public static let fileSuffix = ".abplayer-journal"

    /// Where `device` keeps its journal in the sync folder `folder`.
    public static func path(of device: DeviceID, in folder: String) -> String { folder + "/" + device.text + fileSuffix }

    public static func header(device: DeviceID, name: String? = nil) -> String {
        "\(magic)\t\(version)\t\(device.text)" + (name.map { "\t" + escaped($0) } ?? "") + "\n"
    }

    /// The line that renames the writer from `at` on.
    static func nameLine(_ name: String, at: Date) -> String {
        "N\t\(milliseconds(at))\t\(escaped(name))\n"
    }

    /// A short name for `book`, the same wherever it is written: FNV-1a (64 bits) of its items and title.
    public static func reference(of book: SyncBookIdentity) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in (book.items.joined(separator: ",") + "\t" + book.title).utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return String(hash, radix: 36)
    }

    static func bookLine(_ book: SyncBookIdentity, reference: String) -> String {
        let seconds = book.seconds.map { String(format: "%.3f", $0) } ?? ""
        let items = book.items.map(escaped).joined(separator: ",")
        return ["B", reference, escaped(book.title), escaped(book.author ?? ""), seconds, items].joined(separator: "\t") + "\n"
    }

    /// The record's line; nil when it names an item that is not one of its book's.
    static func recordLine(_ record: SyncRecord, reference: String) -> String? {
        let at = String(milliseconds(record.at))
        let itemNumber = { (item: String) in record.book.items.firstIndex(of: item).map(String.init) }
        let fields: [String]
        switch record.change {
        case let .position(item, frame):
            guard let number = itemNumber(item) else { return nil }
            fields = ["P", reference, at, number, String(frame)]
        case let .finished(finished):
            fields = ["F", reference, at, finished ? "1" : "0"]
        case let .bookmark(bookmark):
            guard let number = itemNumber(bookmark.item) else { return nil }
            fields = ["M", reference, at, escaped(bookmark.id), number, String(bookmark.frame),
                      bookmark.kind.rawValue, String(milliseconds(bookmark.createdAt)), escaped(bookmark.note ?? "")]
        case let .bookmarkRemoved(id):
            fields = ["R", reference, at, escaped(id)]
        case let .settings(settings):
            fields = ["S", reference, at] + settingsFields(settings)
        case let .chapters(chapters):
            guard let list = chaptersField(chapters, items: record.book.items) else { return nil }
            fields = ["C", reference, at, list]
        }
        return fields.joined(separator: "\t") + "\n"
    }

    /// Cannot trap: every time written is this library's (a four-digit year in SQLite) or one
    /// read through `date(milliseconds:)`, within a century of now.
    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }
    /// The time a journal's AT or CREATED says; nil when it is before 2000 (no journal is older) or
    /// more than 100 years from now: the library stores times as text of a four-digit year, and
    /// one year 31,690,708 (or -2) taken from a journal made the whole library unreadable. The
    /// one place such a time is checked, for every line that carries one.
    static func date(milliseconds: Int64) -> Date? {
        guard (earliestMilliseconds...latestMilliseconds).contains(milliseconds) else { return nil }
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// 2000-01-01T00:00:00Z.
    static let earliestMilliseconds: Int64 = 946_684_800_000
    /// 100 years after the process started (worked out once: a million lines are read at a time).
    static let latestMilliseconds: Int64 = milliseconds(Date()) + 100 * 31_556_952_000
    /// What a `B` line's SECONDS may say: up to 100,000 hours (no book is near it; the player sums and shows it).
    static let bookSecondsRange = 0.0...360_000_000.0

    /// A field's text with the separators escaped (commas too: fingerprints are listed with them).
    static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x5C || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0x2C }) else { return text }
        var out = ""
        for character in text.unicodeScalars {
            switch character {
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case ",": out += "\\c"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// The text of an escaped field; nil when an escape is not one of ours (a damaged line).
    static func unescaped(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard bytes.contains(0x5C) else { return String(decoding: bytes, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            index += 1
            guard byte == 0x5C else { out.append(byte); continue }
            guard index < bytes.endIndex else { return nil }
            switch bytes[index] {
            case 0x5C: out.append(0x5C)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "c"): out.append(0x2C)
            default: return nil
            }
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
