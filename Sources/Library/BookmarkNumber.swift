/// What a listener calls a bookmark: its place in its book's list, in the book's order (by time
/// in the book). The listener's own are 1, 2, 3...; the automatic ones (left before a seek or a
/// jump, where a sleep timer stopped), which only `bookmarks --all` shows, are a1, a2, a3... in
/// the same order. Counting the two apart keeps a listener's bookmark at its number whether the
/// automatic ones are listed or not, and a plain number never reaches an automatic one.
///
/// A number is a place, not an identity: removing bookmark 1 makes the old 2 the new 1. It is
/// the same on every computer that syncs the book, because the order it counts is
/// (`BookmarkStore.numbered`). The database id stays the stable name for programs.
public enum BookmarkNumber: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The listener's own, from 1.
    case user(Int)
    /// An automatic one, from 1, written `a1`.
    case automatic(Int)

    /// "3" or "a3", as the lists write them; nil for anything else (0, "#3", "b2").
    public init?(_ text: String) {
        let automatic = text.first == "a"
        let digits = automatic ? text.dropFirst() : Substring(text)
        // Digits only: Int("+3") is 3, but "+3" is not written in any list.
        guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit), let value = Int(digits), value >= 1 else { return nil }
        self = automatic ? .automatic(value) : .user(value)
    }

    public var description: String {
        switch self {
        case let .user(number): String(number)
        case let .automatic(number): "a\(number)"
        }
    }

    public var isAutomatic: Bool { if case .automatic = self { true } else { false } }

    /// Its place among the bookmarks of its kind, from 1.
    public var index: Int {
        switch self {
        case let .user(index), let .automatic(index): index
        }
    }

    /// The number of the same kind at `index` (a1 -> a4).
    public func atIndex(_ index: Int) -> BookmarkNumber { isAutomatic ? .automatic(index) : .user(index) }

    /// In JSON, the text the lists show and the commands take ("3", "a3").
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let number = Self(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "'\(text)' is not a bookmark number"))
        }
        self = number
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// A bookmark with the number its book's list gives it.
public struct NumberedBookmark: Sendable, Equatable {
    public let number: BookmarkNumber
    public let bookmark: Bookmark

    public init(number: BookmarkNumber, bookmark: Bookmark) {
        self.number = number
        self.bookmark = bookmark
    }

    /// `bookmarks` in the book's order, numbered: user ones 1, 2..., automatic ones a1, a2...
    static func numbering(_ ordered: [Bookmark]) -> [NumberedBookmark] {
        var users = 0, automatics = 0
        return ordered.map { bookmark in
            if bookmark.kind.isAutomatic {
                automatics += 1
                return NumberedBookmark(number: .automatic(automatics), bookmark: bookmark)
            }
            users += 1
            return NumberedBookmark(number: .user(users), bookmark: bookmark)
        }
    }
}

private extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
