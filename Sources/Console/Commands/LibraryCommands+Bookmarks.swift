import Foundation
import Library
import Player

/// `bookmarks export` and `bookmarks import`: a book's bookmarks to a file other programs read,
/// and back (`BookmarkTransfer` places them; `BookmarkFile` writes and reads the formats).
extension LibraryCommands {
    func bookmarkFile(_ line: BookmarkFileLine) throws {
        let book = try line.book.map(resolveBook) ?? {
            guard let loaded = player.loadedBook?.book else {
                throw CommandError("nothing is playing: say which book, 'bookmarks \(line.direction == .importing ? "import" : "export") BOOK ... FILE'")
            }
            return loaded
        }()
        switch line.direction {
        case let .exporting(all):
            // The line's parser made sure the format is known.
            guard let format = line.format ?? BookmarkFileFormat(fileName: line.path) else { return }
            let entries = try player.bookmarkEntries(ofBook: book.id!, all: all)
            let text = BookmarkFile.text(entries, as: format)
            if line.path == "-" {
                let shown = String(text.replacingOccurrences(of: "\r\n", with: "\n").dropLast())
                if shown.isEmpty { return }
                if format == .json { lines.sayExactly(shown) } else { say(shown) }
                return
            }
            let file = Self.expandingTilde(line.path)
            try BookmarkFile.write(text, toFile: file, besides: library)
            say(LibraryText.exportedLine(entries, as: format, of: book.title, to: file))
        case .importing:
            let file = Self.expandingTilde(line.path)
            let read = try BookmarkFile.read(try BookmarkFile.contents(ofFile: file, besides: library), format: line.format, name: file)
            let imported = try BookmarkTransfer.importing(read, toBook: book.id!, in: library)
            imported.problems.forEach { complain("\(file): \($0)") }
            say(imported.summary)
        }
    }
}
