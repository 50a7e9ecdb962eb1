import Library

/// The `art` gallery: the books of a shelf and its sub-shelves, one cover at a time.
struct Gallery {
    let books: [BookListing]
    var index = 0

    var current: BookListing { books[index] }

    mutating func move(by step: Int) {
        index = min(books.count - 1, max(0, index + step))
    }

    /// The screen: the cover (or a framed title card) above the title, author and keys.
    func lines(cover: CoverArt.Pixels?, size: ScreenSize, style: ScreenStyle) -> [String] {
        let width = max(1, size.columns)
        let footer = [
            style.styled(TextFit.truncate("\(index + 1)/\(books.count)  \(current.title)", to: width), "1"),
            TextFit.truncate(current.author ?? "", to: width),
            style.styled(TextFit.truncate("←/→ move  Enter play  q back", to: width), "2"),
        ]
        let room = max(1, size.rows - footer.count)
        let picture: [String]
        if let cover {
            picture = CoverArt(cover, maxColumns: width, maxRows: room, colors: style.mode == .color ? style.coverColors : .none).lines
        } else {
            picture = Self.titleCard(current.title, author: current.author, width: min(width, 40), height: min(room, 12))
        }
        return Array(picture.prefix(room)) + footer
    }

    /// A box with the title (and author) in its middle, for a book without a cover.
    static func titleCard(_ title: String, author: String?, width: Int, height: Int) -> [String] {
        guard width >= 4, height >= 3 else { return [TextFit.truncate(title, to: width)] }
        let inner = width - 2
        func centered(_ text: String) -> String {
            let fitted = TextFit.truncate(text, to: inner - 2)
            let left = (inner - TextFit.cells(fitted)) / 2
            return "│" + String(repeating: " ", count: left) + fitted + String(repeating: " ", count: inner - left - TextFit.cells(fitted)) + "│"
        }
        let texts = [title] + (author.map { [$0] } ?? []) + ["(no cover)"]
        var body = Array(repeating: centered(""), count: max(texts.count, height - 2))
        let top = (body.count - texts.count) / 2
        for (offset, text) in texts.enumerated() { body[top + offset] = centered(text) }
        return ["┌" + String(repeating: "─", count: inner) + "┐"] + body + ["└" + String(repeating: "─", count: inner) + "┘"]
    }
}
