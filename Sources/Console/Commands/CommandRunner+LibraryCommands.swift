import Foundation
import Library
import Listening

/// The library commands of the REPL. The lines they print come from `LibraryText`, shared with
/// the `abplayer` subcommands of the same names.
///
/// An edit that may touch the book loaded (its items added, reordered or removed, the book or its
/// shelf deleted, a state imported) goes through `PlayerController.edit`: what it means for the
/// book playing (taken while it plays, or stopped and loaded again) is the player's to decide.
extension CommandRunner {
    func run(_ command: LibraryCommand) throws {
        switch command {
        case let .shelf(action): try shelf(action)
        case let .book(action): try book(action)
        case let .importPaths(paths, shelf, layout): try importPaths(paths, shelf: shelf, layout: layout)
        case let .rescan(reference, folders):
            let only = try reference.map { Set(try library.items(ofBook: try resolveBook($0).id!).map { $0.id! }) }
            let lines = LibraryText.rescanLines(try library.rescan(searchRoots: folders.map(Self.expandingTilde), onlyMedia: only))
            lines.found.forEach(say)
            lines.missing.forEach(complain)
            say(lines.summary)
        case let .browse(field, value):
            if let value {
                let media = try library.media(where: field, equals: value)
                if media.isEmpty { throw CommandError("no file has \(field.rawValue) '\(value)': 'browse \(field.rawValue)' lists the values") }
                media.map(LibraryText.mediaLine).forEach(say)
            } else {
                let values = try library.browse(field)
                if values.isEmpty { say("no file has a \(field.rawValue) tag") }
                values.map(LibraryText.browseLine).forEach(say)
            }
        case let .bookmarks(reference, all):
            // Through the player: the same lines, times and chapters as the book loaded's.
            try perform(.bookmarks(bookId: try resolveBook(reference).id!, all: all))
        case let .history(reference):
            let lines = try LibraryText.historyLines(library, book: try reference.map { try resolveBook($0).id! },
                                                     limit: LibraryText.historyLimit)
            if lines.isEmpty { say("no listening recorded yet") }
            lines.forEach(say)
        case let .stats(reference):
            try LibraryText.statsLines(library, book: try reference.map { try resolveBook($0).id! },
                                       days: LibraryText.statsDays).forEach(say)
        case let .export(path):
            let file = Self.expandingTilde(path)
            let state = try library.exportState(toFile: file)
            say("exported \(LibraryText.counted(state.books.count, "book")) to \(file)")
        case let .importState(path):
            let state = try library.readState(fromFile: Self.expandingTilde(path))
            let lines = LibraryText.stateImportLines(try player.edit(.stateImported) { try library.importState(state) })
            lines.unmatched.forEach(complain)
            say(lines.summary)
        }
    }

    // MARK: Shelves

    /// The shelf path `argument` names from the current shelf, like `cd`: "A/B", "../C", "/D";
    /// "" for the top.
    func absoluteShelfPath(_ argument: String) -> String {
        let current = here.current
        let absolute = argument.hasPrefix("/") ? argument : current + "/" + argument
        var names: [String] = []
        for name in LibraryDatabase.shelfNames(absolute) {
            switch name {
            case ".": continue
            case "..": _ = names.popLast()
            default: names.append(name)
            }
        }
        return names.joined(separator: "/")
    }

    func shelf(_ action: LibraryCommand.ShelfAction) throws {
        switch action {
        case let .create(path):
            let target = absoluteShelfPath(path)
            _ = try library.createShelf(path: target)
            say("created /\(target)")
        case let .rename(path, name):
            let target = absoluteShelfPath(path)
            try library.renameShelf(path: target, to: name)
            let parent = LibraryDatabase.shelfNames(target).dropLast()
            follow(target, to: (parent + [name]).joined(separator: "/"))
        case let .move(path, parent):
            let target = absoluteShelfPath(path)
            let under = parent.map(absoluteShelfPath).flatMap { $0.isEmpty ? nil : $0 }
            try library.moveShelf(path: target, under: under)
            follow(target, to: ([under].compactMap { $0 } + LibraryDatabase.shelfNames(target).suffix(1)).joined(separator: "/"))
        case let .remove(path, force):
            let target = absoluteShelfPath(path)
            let delete = { try self.library.deleteShelf(path: target, force: force) }
            let removed = force ? try player.edit(.shelfDeleted(path: target), delete) : try delete()
            if force { say("deleted \(removed.shelves) shelves and \(removed.books) books (their media stay in the library)") }
        }
        // The shelf we are in (or the terminal is in, for a socket client's line) may have been
        // renamed, moved or deleted.
        for view in shelfViews where !view.current.isEmpty {
            guard try library.shelfID(path: view.current) == nil else { continue }
            view.current = ""
            if view === here { say("now at /") }
        }
    }

    /// The shelf of the line being run and the terminal's, once each.
    private var shelfViews: [ShelfLocation] { here === location ? [here] : [here, location] }

    /// Keeps the current shelves when they, or a shelf above them, moved from `old` to `new`.
    func follow(_ old: String, to new: String) {
        for view in shelfViews {
            let current = view.current
            if current == old { view.current = new }
            if current.hasPrefix(old + "/") { view.current = new + current.dropFirst(old.count) }
        }
    }

    // MARK: Books

    /// The book `reference` names (#id, or its title or a unique part of it), looking first
    /// among the books on the current shelf and below, then in the whole library.
    func resolveBook(_ reference: String) throws -> Book {
        let current = here.current
        if !current.isEmpty, Int64(reference.hasPrefix("#") ? String(reference.dropFirst()) : reference) == nil {
            let lowered = reference.lowercased()
            let near = try library.bookListings(shelf: current)
            let exact = near.filter { $0.title.lowercased() == lowered }
            let partial = near.filter { $0.title.lowercased().contains(lowered) }
            if let only = exact.count == 1 ? exact.first : partial.count == 1 ? partial.first : nil {
                return try library.book(matching: "#\(only.id)")
            }
        }
        return try library.book(matching: reference)
    }

    func book(_ action: LibraryCommand.BookAction) throws {
        switch action {
        case let .rename(reference, title):
            let book = try resolveBook(reference)
            try library.renameBook(book.id!, to: title)
            player.bookRenamed(book.id!, to: title)
            say(TerminalText.visible("#\(book.id!) \(title)"))
        case let .move(reference, shelf):
            let book = try resolveBook(reference)
            let target = shelf.map(absoluteShelfPath)
            try library.moveBook(book.id!, toShelf: target?.isEmpty == true ? nil : target)
            say(TerminalText.visible("#\(book.id!) \(book.title) is now on /\(target ?? "")"))
        case let .remove(reference):
            let book = try resolveBook(reference)
            try player.edit(.bookDeleted(bookId: book.id!)) { try library.deleteBook(book.id!) }
            say(TerminalText.visible("deleted #\(book.id!) \(book.title) with its position, bookmarks and history (its files are not touched)"))
        case let .items(reference):
            let id: Int64
            if let reference {
                id = try resolveBook(reference).id!
            } else {
                guard let loaded = player.loadedBook else { throw CommandError("nothing is playing: say which book, 'book items BOOK'") }
                id = loaded.book.id!
            }
            for (index, item) in try library.bookListing(id: id).items.enumerated() {
                say(LibraryText.itemLine(number: index + 1, item))
            }
        case let .reorder(reference, from, to):
            let book = try resolveBook(reference)
            let count = try library.items(ofBook: book.id!).count
            guard (1...max(count, 1)).contains(from), (1...max(count, 1)).contains(to) else {
                throw CommandError("\(book.title) has items 1 to \(count): 'book items BOOK' lists them")
            }
            try player.edit(.itemsAddedOrMoved(bookId: book.id!)) { try library.moveItem(ofBook: book.id!, from: from - 1, to: to - 1) }
            say(TerminalText.visible("moved item \(from) of \(book.title) to \(to)"))
        case let .add(reference, paths):
            let book = try resolveBook(reference)
            let (added, skipped) = try player.edit(.itemsAddedOrMoved(bookId: book.id!)) {
                try library.addFiles(paths.map(Self.expandingTilde), toBook: book.id!, inspector: DecoderInspector(decoders: decoders))
            }
            for (path, reason) in skipped { complain(TerminalText.visible("skipped \(path): \(reason)")) }
            say(TerminalText.visible("added \(added) files to #\(book.id!) \(book.title)"))
            if added == 0 && !skipped.isEmpty { throw CommandError("no file added") }
        case let .removeItems(reference, numbers):
            let book = try resolveBook(reference)
            let media = try library.items(ofBook: book.id!)
            guard numbers.allSatisfy({ media.indices.contains($0 - 1) }) else {
                throw CommandError("\(book.title) has items 1 to \(media.count): 'book items BOOK' lists them")
            }
            try player.edit(.itemsRemoved(bookId: book.id!)) {
                try library.removeItems(fromBook: book.id!, mediaIds: numbers.map { media[$0 - 1].id! })
            }
            say(TerminalText.visible("removed \(Set(numbers).count) items from \(book.title)"))
        }
    }

    func importPaths(_ paths: [String], shelf: String?, layout: ImportLayout) throws {
        let target = shelf.map(absoluteShelfPath) ?? here.current
        let importer = Importer(library: library, inspector: DecoderInspector(decoders: decoders))
        let bar = ProgressBar(label: "importing")
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
        say(lines.summary + " (into /\(target))")
        // As the `import` subcommand: a script (`-c`, a pipe) learns from the exit status that
        // not every file made it.
        if !report.skipped.isEmpty {
            throw CommandError(report.books.isEmpty ? "nothing imported" : "\(report.skipped.count) skipped (see above)")
        }
    }

    // MARK: Helpers

    /// "~/x" and "~" as the shell would read them (the tokenizer does not).
    static func expandingTilde(_ path: String) -> String {
        (path as NSString).expandingTildeInPath
    }
}
