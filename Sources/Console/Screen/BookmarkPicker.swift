import Player

/// The player screen's bookmark list (`B`): the book's bookmarks, numbered as `bookmarks` numbers
/// them (`BookmarkPlace.line`), one chosen; Enter or a number key goes there, q/Esc back.
struct BookmarkPicker {
    let book: String
    let places: [BookmarkPlace]
    var index = 0

    var current: BookmarkPlace { places[index] }

    mutating func move(by step: Int) {
        index = min(places.count - 1, max(0, index + step))
    }

    /// The bookmark number key `digit` (1-9) picks, as the list numbers them.
    func place(forDigit digit: Character) -> BookmarkPlace? {
        guard let number = digit.wholeNumberValue else { return nil }
        return places.first { $0.number == .user(number) }
    }

    /// A title, the bookmarks with their numbers (the chosen one highlighted, kept in sight) and the keys.
    func lines(size: ScreenSize, style: ScreenStyle) -> [String] {
        let width = max(1, size.columns)
        func fit(_ text: String) -> String { TextFit.truncate(TerminalText.visible(text), to: width) }
        let header = style.styled(fit("Bookmarks — \(book)"), "1")
        let footer = style.styled(fit("↑/↓ move  Enter or 1-9 go there  q back"), "2")
        let room = max(1, size.rows - 2)
        let first = max(0, min(index - room + 1, places.count - room))
        let rows = places.indices.dropFirst(first).prefix(room).map { row in
            let text = fit("\(row == index ? ">" : " ") \(places[row].line)")
            return row == index ? style.styled(text, "7") : text
        }
        return [header] + rows + [footer]
    }
}
