/// The play order of a book's files: disc, then track number, then natural file-name order.
///
/// Tags are often broken (every file "track 1", gaps, duplicates, tags from another edition)
/// and names are often the only order a human checked. So within a disc the track tags decide
/// only when they form a clean sequence (every file tagged, no duplicates, no gaps); otherwise
/// the natural order of the file names does.
public enum ItemOrdering {
    public struct Candidate: Sendable, Equatable {
        /// The file name (without folders).
        public var name: String
        /// The disc number the file's folder gives (CD1, Disc 2, Part 3), if it is in one.
        public var folderDisc: Int?
        public var tagDisc: Int?
        public var track: Int?

        public init(name: String, folderDisc: Int? = nil, tagDisc: Int? = nil, track: Int? = nil) {
            self.name = name
            self.folderDisc = folderDisc
            self.tagDisc = tagDisc
            self.track = track
        }
    }

    /// The indices of `candidates` in play order.
    public static func order(_ candidates: [Candidate]) -> [Int] {
        // Disc tags count only when every file has one; a folder's disc number beats a tag.
        let tagDiscsUsable = candidates.allSatisfy { $0.folderDisc != nil || $0.tagDisc != nil }
        func disc(_ c: Candidate) -> Int { c.folderDisc ?? (tagDiscsUsable ? c.tagDisc ?? 0 : 0) }
        let discs = Dictionary(grouping: candidates.indices, by: { disc(candidates[$0]) })
        return discs.keys.sorted().flatMap { key -> [Int] in
            let members = discs[key]!
            let byName = members.map { (index: $0, key: NaturalOrder.Key(candidates[$0].name)) }
                .sorted { $0.key < $1.key }.map(\.index)
            let tracks = members.compactMap { candidates[$0].track }
            guard tracks.count == members.count, isCleanSequence(tracks) else { return byName }
            return members.sorted { candidates[$0].track! < candidates[$1].track! }
        }
    }

    /// Distinct consecutive numbers (in any order), e.g. 3,1,2 or 11...20.
    static func isCleanSequence(_ numbers: [Int]) -> Bool {
        guard let low = numbers.min(), let high = numbers.max() else { return false }
        return Set(numbers).count == numbers.count && high - low == numbers.count - 1
    }

    /// The disc number a folder name gives: "CD1", "cd 2", "Disc 03", "Disk-4", "Part 5",
    /// "Часть 2", "Том 1". Nil for any other name.
    public static func discNumber(folderName: String) -> Int? {
        let lower = folderName.lowercased()
        for word in ["cd", "disc", "disk", "part", "часть", "том", "teil"] where lower.hasPrefix(word) {
            let rest = lower.dropFirst(word.count).drop { $0 == " " || $0 == "-" || $0 == "_" || $0 == "." }
            // The number, then nothing or a separator: "CD1", "Disc 2 - Bonus", not "Partridge".
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty else { return nil }
            if let next = rest.dropFirst(digits.count).first, next.isLetter || next.isNumber { return nil }
            return Int(digits)
        }
        return nil
    }
}
