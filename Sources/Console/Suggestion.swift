/// The nearest of some names to a word typed wrong (`paly` -> `play`, `listne` -> `listen`), by
/// edit distance (insertions, deletions, substitutions and swaps of neighbours each count one).
public enum Suggestion {
    /// The name closest to `word`, when it is close enough to be what was meant: at most one
    /// edit for words of up to four letters, two for longer ones. Nil when none is, or when two
    /// are equally close.
    public static func nearest(to word: String, among names: [String]) -> String? {
        let limit = word.count <= 4 ? 1 : 2
        let scored = names.map { (name: $0, distance: distance(word.lowercased(), $0)) }.filter { $0.distance <= limit }
        guard let best = scored.min(by: { $0.distance < $1.distance }) else { return nil }
        let tied = Set(scored.filter { $0.distance == best.distance }.map(\.name))
        return tied.count == 1 ? best.name : nil
    }

    /// The optimal string alignment distance (Damerau-Levenshtein without repeated edits).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
