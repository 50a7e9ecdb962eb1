import Foundation

/// The lines of a book's settings and of its user chapters (journal version 1, added later):
///
/// ```
/// S  REF  AT  KEY=VALUE  KEY=VALUE ...            the book's settings, whole
/// C  REF  AT  ITEM:FRAME:TITLE,ITEM:FRAME:TITLE   the book's user chapters, whole (empty: none)
/// ```
/// S keys, each written every time, an empty value being "no setting of the book's own" (the
/// listener's default applies on each machine): `speed` (0.5-4), `skip` (seconds, 1-3600), `sleep`
/// (seconds, 1-86400), `silence` (`off`, or the shortest silence shortened in ms, 300-60000),
/// `loudness` (1|0), `repeat` (off|item|book), `shuffle` (1|0), and since the library's v14 `intro`
/// and `outro` (seconds left out at each end of every item, 0-600; a line without them, from an
/// older writer, reads as none of the book's own). A key this version does not know is
/// a newer writer's and is ignored; a known key with a value out of range, or a field that is not
/// KEY=VALUE, makes the line damaged. Each field is escaped as a whole, as text fields are.
/// Never the volume: each machine's speakers differ.
///
/// C's list is one field: ITEM (the item's place in the `B` line), FRAME and the escaped TITLE of
/// each chapter, separated by commas (a title's commas are escaped). The title comes last, so it
/// may hold colons.
extension SyncJournalFormat {
    static func settingsFields(_ settings: SyncBookSettings) -> [String] {
        func number(_ value: Double?) -> String { value.map { "\($0)" } ?? "" }
        func flag(_ value: Bool?) -> String { value.map { $0 ? "1" : "0" } ?? "" }
        let silence: String
        switch settings.skipSilence {
        case nil: silence = ""
        case .off: silence = "off"
        case let .on(minimumMs): silence = String(minimumMs)
        }
        return [("speed", number(settings.speed)), ("skip", number(settings.skipIntervalSeconds)),
                ("sleep", number(settings.sleepTimerSeconds)), ("silence", silence), ("loudness", flag(settings.loudness)),
                ("repeat", settings.repeatMode.rawValue), ("shuffle", flag(settings.shuffle)),
                ("intro", number(settings.skipIntroSeconds)), ("outro", number(settings.skipOutroSeconds))]
            .map { escaped($0.0 + "=" + $0.1) }
    }

    /// The list field; nil when a chapter names an item the book does not have.
    static func chaptersField(_ chapters: [SyncChapter], items: [String]) -> String? {
        var entries: [String] = []
        for chapter in chapters {
            guard let number = items.firstIndex(of: chapter.item) else { return nil }
            entries.append("\(number):\(chapter.frame):" + escaped(chapter.title))
        }
        return entries.joined(separator: ",")
    }

    /// The settings an S line's fields after AT say; nil when one is damaged.
    static func settings(_ fields: [UnsafeBufferPointer<UInt8>]) -> SyncBookSettings? {
        var settings = SyncBookSettings()
        for field in fields {
            guard let text = unescaped(field), let equals = text.firstIndex(of: "=") else { return nil }
            let value = String(text[text.index(after: equals)...])
            /// A decimal in `range` (empty: nil, no setting of its own); .none when it is not one.
            func number(_ range: ClosedRange<Double>) -> Double?? {
                if value.isEmpty { return .some(nil) }
                guard let number = Double(value), number.isFinite, range.contains(number) else { return .none }
                return .some(number)
            }
            func flag() -> Bool?? {
                switch value {
                case "": return .some(nil)
                case "1": return .some(true)
                case "0": return .some(false)
                default: return .none
                }
            }
            switch text[..<equals] {
            case "speed":
                guard let speed = number(SettingRanges.speed) else { return nil }
                settings.speed = speed
            case "skip":
                // The CLI's ranges (`SettingRanges`): 1e308 s, taken, trapped every player that made it an integer.
                guard let skip = number(SettingRanges.skipSeconds) else { return nil }
                settings.skipIntervalSeconds = skip
            case "sleep":
                guard let sleep = number(SettingRanges.sleepSeconds) else { return nil }
                settings.sleepTimerSeconds = sleep
            case "silence":
                if value.isEmpty {
                    settings.skipSilence = nil
                } else if value == "off" {
                    settings.skipSilence = .off
                } else {
                    guard let minimum = Int(value), SkipSilence.minimumMsRange.contains(minimum) else { return nil }
                    settings.skipSilence = .on(minimumMs: minimum)
                }
            case "loudness":
                guard let loudness = flag() else { return nil }
                settings.loudness = loudness
            case "repeat":
                guard let mode = RepeatMode(rawValue: value) else { return nil }
                settings.repeatMode = mode
            case "shuffle":
                guard let shuffle = flag(), let on = shuffle else { return nil }
                settings.shuffle = on
            case "intro":
                guard let intro = number(SettingRanges.introOutroSeconds) else { return nil }
                settings.skipIntroSeconds = intro
            case "outro":
                guard let outro = number(SettingRanges.introOutroSeconds) else { return nil }
                settings.skipOutroSeconds = outro
            default:
                continue // a newer writer's setting
            }
        }
        return settings
    }

    /// The chapters a C line's list says, in the book's order; nil when one is damaged: an item
    /// the book does not have, a negative frame, an empty title (the library refuses one), or two
    /// at the same place (the library keeps one chapter a place).
    static func chapters(_ list: UnsafeBufferPointer<UInt8>, items: [String]) -> [SyncChapter]? {
        guard !list.isEmpty else { return [] }
        var chapters: [SyncChapter] = []
        var places: Set<[Int64]> = []
        for entry in list.split(separator: 0x2C, omittingEmptySubsequences: false) {
            guard let text = unescaped(UnsafeBufferPointer(rebasing: entry)) else { return nil }
            let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, let item = Int(parts[0]), items.indices.contains(item),
                  let frame = Int64(parts[1]), frame >= 0,
                  parts[2].contains(where: { $0 != " " }), // the library's CHECK: length(trim(title)) > 0
                  places.insert([Int64(item), frame]).inserted
            else { return nil }
            chapters.append(SyncChapter(item: items[item], frame: frame, title: String(parts[2])))
        }
        return SyncChapter.ordered(chapters, items: items)
    }
}
