public import Library
import Player

/// The full screens of a terminal, as the command runner reaches them: the face that draws them
/// (the REPL's `Console`) opens them; where none can show (a pipe, a script, a socket client,
/// TERM=dumb) the runner answers the same commands with plain lines.
public protocol ScreenFace: AnyObject {
    /// Whether this terminal can show a full screen now.
    var showsScreens: Bool { get }
    /// The player screen (`now`).
    func openPlayer()
    /// The cover gallery of these books (`art`).
    func openGallery(_ books: [BookListing])
    /// The library browser (`library`).
    func openLibrary() throws
    /// Clears the terminal (`clear`).
    func clearTerminal()
    /// Lines a window at a time when they are taller than it and the terminal can page (keys
    /// readable, the cursor movable); else said as they are (TERM=dumb, a pipe).
    func showPaged(_ lines: [String])
}

extension CommandRunner {
    func show(_ command: ScreenCommand) throws {
        // A socket client's line never opens a screen on the player's terminal: it gets the lines.
        let face = capture == nil ? screens.flatMap { $0.showsScreens ? $0 : nil } : nil
        switch command {
        case .now:
            // Nothing loaded: carry on with the book listened to last.
            if player.loadedBook == nil { try play(nil) }
            if let face { return face.openPlayer() }
            guard let status = player.status else { throw PlayerError("nothing is playing: 'play BOOK' first") }
            say(TerminalText.visible(PlayerScreenLayout(status: status).plainLine))
            // In plain mode the status once is the screen: from here on what changes is announced
            // on a line of its own (a new chapter, a pause, the sleep timer...) at the prompt.
            if !announcesEvents || capture != nil {
                say("(the player screen needs a terminal that can move the cursor; here the commands work line by line)")
            }
        case let .art(shelf):
            let path = shelf.map(absoluteShelfPath) ?? here.current
            let books = try library.catalog.bookListings(shelf: path.isEmpty ? nil : path)
            guard !books.isEmpty else { throw CommandError("no books in /\(path)") }
            if let face { return face.openGallery(books) }
            for book in books { say(LibraryCommands.line(for: book)) }
            say("(the cover gallery needs a terminal that can move the cursor)")
        case .library:
            if let face { return try face.openLibrary() }
            // A plain terminal's listener picks a book by its number, on the next line.
            if announcesEvents, capture == nil, answersFollow {
                let books = try libraryCommands.listNumbered()
                libraryChoice = books.isEmpty ? nil : books
                return
            }
            try libraryCommands.listAsTheBrowser()
        case .clear:
            // Only a terminal that moves the cursor is cleared; a pipe, a script's output or a
            // socket client's reply gets nothing (no escape bytes in a log).
            face?.clearTerminal()
        }
    }
}

extension CommandRunner {
    /// The line after `library` listed the books numbered (plain mode): a number plays that
    /// book, an empty line or `q` goes back to the prompt; anything else is a command of its own
    /// (nil: run it).
    func answerLibraryChoice(_ line: String) -> Outcome? {
        guard capture == nil, let books = libraryChoice else { return nil }
        libraryChoice = nil
        let answer = line.trimmingCharacters(in: .whitespaces)
        if answer.isEmpty || answer.lowercased() == "q" { return .succeeded }
        guard let number = Int(answer) else { return nil }
        guard books.indices.contains(number - 1) else {
            complain("library: no book \(number): the numbers go from 1 to \(books.count); 'library' lists them again")
            return .failed
        }
        let bookId = books[number - 1]
        do {
            // The book loaded carries on where it is (paused: resumes) rather than loading again,
            // as Enter on the library screen does.
            try execute(.play(player.loadedBook?.book.id == bookId ? nil : "#\(bookId)"))
            return .succeeded
        } catch {
            complain(TerminalText.visible("play: \(error)"))
            return .failed
        }
    }
}
