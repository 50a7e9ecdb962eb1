import Foundation

/// File-name order as people read it: "Chapter 2" before "Chapter 10", case ignored. Written
/// here rather than using Foundation's `.numeric` compare so the order is the same on every
/// platform and locale and can be tested exactly.
public enum NaturalOrder {
    enum Token: Equatable {
        case number(UInt64, digits: Int)
        case text(String)
    }

    static func tokens(_ name: String) -> [Token] {
        var tokens: [Token] = []
        var current = ""
        var inNumber = false
        func flush() {
            guard !current.isEmpty else { return }
            if inNumber {
                // Absurdly long digit runs compare by length, then text.
                tokens.append(.number(UInt64(current.suffix(18)) ?? 0, digits: current.count))
            } else {
                tokens.append(.text(current.lowercased()))
            }
            current = ""
        }
        for character in name {
            let isDigit = character.isASCII && character.isNumber
            if isDigit != inNumber { flush(); inNumber = isDigit }
            current.append(character)
        }
        flush()
        return tokens
    }

    /// True when `a` comes before `b`.
    public static func precedes(_ a: String, _ b: String) -> Bool { Key(a) < Key(b) }

    /// A name with its tokens made once, to sort by: a sort compares each name about log n
    /// times, and tokenizing at every comparison was most of the time spent ordering a book.
    public struct Key: Comparable {
        let name: String
        let tokens: [Token]

        public init(_ name: String) {
            self.name = name
            tokens = NaturalOrder.tokens(name)
        }

        public static func < (a: Key, b: Key) -> Bool { NaturalOrder.precedes(a.tokens, a.name, b.tokens, b.name) }
    }

    private static func precedes(_ left: [Token], _ a: String, _ right: [Token], _ b: String) -> Bool {
        for (x, y) in zip(left, right) where x != y {
            switch (x, y) {
            case let (.number(m, _), .number(n, _)) where m != n: return m < n
            case let (.number(_, d), .number(_, e)): return d > e   // "007" before "7": stable, arbitrary
            case (.number, .text): return true
            case (.text, .number): return false
            case let (.text(s), .text(t)): return s < t
            }
        }
        if left.count != right.count { return left.count < right.count }
        return a < b
    }
}
