import Foundation

/// Finds a chapter by what the listener typed of its title: `chapter storm`.
struct ChapterTitles {
    let titles: [String]

    init(_ titles: [String]) { self.titles = titles }

    /// The index of the chapter titled `text`, or else the only one whose title contains it
    /// (ignoring case and accents); an error naming the candidates when several do, or the
    /// valid choices when none does.
    func index(matching text: String, choices: String) throws(PlayerError) -> Int {
        let wanted = Self.folded(text)
        let folded = titles.map(Self.folded)
        if let exact = folded.firstIndex(of: wanted) { return exact }
        let matches = folded.indices.filter { folded[$0].contains(wanted) }
        switch matches.count {
        case 1: return matches[0]
        case 0: throw PlayerError("no chapter title contains '\(text)'; \(choices) ('chapters' lists them)")
        default:
            let shown = matches.prefix(5).map { "\($0 + 1) \(titles[$0])" }.joined(separator: ", ")
            let more = matches.count > 5 ? " and \(matches.count - 5) more" : ""
            throw PlayerError("'\(text)' is in \(matches.count) chapter titles (\(shown)\(more)): type more of one, or its number")
        }
    }

    private static func folded(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .trimmingCharacters(in: .whitespaces)
    }
}
