import PlayerCore

/// How `goto` reads its words: an item (its number or title) and maybe a time in it, without
/// quotes: `goto Part 2` is the item titled "Part 2", `goto Part 2 1:30` is 1:30 into it, and
/// `goto 3 90` is 90 s into item 3.
enum ItemReference {
    /// Whether the parser may take `word` as a time on its own: it has a time's form (`1:30`,
    /// `1:02:03`, `90s`, `5m`). A bare number is not enough: it may end a title ("Part 2").
    static func looksLikeTime(_ word: String) -> Bool {
        Double(word) == nil && Timecode.seconds(from: word) != nil
    }

    /// The 0-based index of the item `reference` names: its number, its whole title (any
    /// case), or a part of exactly one title.
    static func index(_ reference: String, titles: [String]) -> Int? {
        if let number = Int(reference), titles.indices.contains(number - 1) { return number - 1 }
        let lowered = reference.lowercased()
        if let exact = titles.firstIndex(where: { $0.lowercased() == lowered }) { return exact }
        let matches = titles.indices.filter { titles[$0].lowercased().contains(lowered) }
        return matches.count == 1 ? matches[0] : nil
    }

    /// Where `goto TEXT [seconds]` goes. All the words name the item when they can; otherwise a
    /// last word that is a number is the seconds into the item the other words name.
    static func gotoTarget(_ text: String, seconds: Double?, titles: [String]) -> (item: Int, seconds: Double?)? {
        if let item = index(text, titles: titles) { return (item, seconds) }
        guard seconds == nil else { return nil }
        var words = text.split(separator: " ").map(String.init)
        guard words.count > 1, let last = words.popLast(), let offset = Timecode.seconds(from: last),
              let item = index(words.joined(separator: " "), titles: titles) else { return nil }
        return (item, offset)
    }
}
