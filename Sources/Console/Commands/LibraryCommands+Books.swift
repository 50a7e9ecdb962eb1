import Foundation
import Library
import Listening

/// The edits of books (`book rename|mv|rm|items|move-item|add|remove-item`) and `import`.
extension LibraryCommands {
    func book(_ action: LibraryCommand.BookAction) throws {
        switch action {
        case let .rename(reference, title):
            let book = try resolveBook(reference)
            try library.books.renameBook(book.id!, to: title)
            player.bookRenamed(book.id!, to: title)
            say(TerminalText.visible("#\(book.id!) \(title)"))
        case let .move(reference, shelf):
            let book = try resolveBook(reference)
            let target = shelf.map(absoluteShelfPath)
            try library.books.moveBook(book.id!, toShelf: target?.isEmpty == true ? nil : target)
            say(TerminalText.visible("#\(book.id!) \(book.title) is now on /\(target ?? "")"))
        case let .remove(reference):
            let book = try resolveBook(reference)
            try player.edit(.bookDeleted(bookId: book.id!)) { try library.books.deleteBook(book.id!) }
            say(TerminalText.visible("deleted #\(book.id!) \(book.title) with its position, bookmarks and history (its files are not touched)"))
        case let .items(reference):
            let id: Int64
            if let reference {
                id = try resolveBook(reference).id!
            } else {
                guard let loaded = player.loadedBook else { throw CommandError("nothing is playing: say which book, 'book items BOOK'") }
                id = loaded.book.id!
            }
            for (index, item) in try library.catalog.bookListing(id: id).items.enumerated() {
                say(LibraryText.itemLine(number: index + 1, item))
            }
        case let .reorder(reference, from, to):
            let book = try resolveBook(reference)
            let count = try library.books.items(ofBook: book.id!).count
            guard (1...max(count, 1)).contains(from), (1...max(count, 1)).contains(to) else {
                throw CommandError("\(book.title) has items 1 to \(count): 'book items BOOK' lists them")
            }
            try player.edit(.itemsAddedOrMoved(bookId: book.id!)) { try library.books.moveItem(ofBook: book.id!, from: from - 1, to: to - 1) }
            say(TerminalText.visible("moved item \(from) of \(book.title) to \(to)"))
        case let .add(reference, paths):
            let book = try resolveBook(reference)
            let (added, skipped) = try player.edit(.itemsAddedOrMoved(bookId: book.id!)) {
                try library.books.addFiles(paths.map(Self.expandingTilde), toBook: book.id!, inspector: DecoderInspector(decoders: decoders))
            }
            for file in skipped { complain(TerminalText.visible("skipped \(file.path): \(file.reason)")) }
            say(TerminalText.visible("added \(LibraryText.counted(added, "file")) to #\(book.id!) \(book.title)"))
            if added == 0 && !skipped.isEmpty { throw CommandError("no file added") }
        case let .removeItems(reference, numbers):
            let book = try resolveBook(reference)
            let media = try library.books.items(ofBook: book.id!)
            guard numbers.allSatisfy({ media.indices.contains($0 - 1) }) else {
                throw CommandError("\(book.title) has items 1 to \(media.count): 'book items BOOK' lists them")
            }
            try player.edit(.itemsRemoved(bookId: book.id!)) {
                try library.books.removeItems(fromBook: book.id!, mediaIds: numbers.map { media[$0 - 1].id! })
            }
            say(TerminalText.visible("removed \(Set(numbers).count) items from \(book.title)"))
        }
    }

    func importPaths(_ paths: [String], shelf: String?, layout: ImportLayout) throws {
        let target = shelf.map(absoluteShelfPath) ?? here.current
        let importer = Importer(library: library, inspector: DecoderInspector(decoders: decoders))
        let bar = ProgressBar(label: "importing", plain: isPlain())
        let report = try importer.importPaths(paths.map(Self.expandingTilde), shelf: target.isEmpty ? nil : target, layout: layout) {
            bar.update(done: $0.done, total: $0.total)
        }
        bar.finish()
        // The new books' folders are watched too, once this line is done (the service's task).
        inputs.yield(.libraryImported)
        let lines = LibraryText.importLines(report)
        lines.books.forEach(say)
        lines.skipped.forEach(complain)
        lines.warnings.forEach(complain)
        // Said here, a file's warning is not said again when the book first plays in this run.
        // (The inspector took the file's name off the front of the decoder's line: put it back.)
        decoders.markWarningsSaid(report.warnings.map { "\($0.path): \($0.message)" })
        say(lines.summary + " (into /\(target))")
        // As the `import` subcommand: a script (`-c`, a pipe) learns from the exit status that
        // not every file made it.
        if !report.skipped.isEmpty {
            throw CommandError(report.books.isEmpty ? "nothing imported" : "\(report.skipped.count) skipped (see above)")
        }
    }
}
