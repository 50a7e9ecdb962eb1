import Foundation
import Library

/// The library screen (`library`, or L on the player screen): the library is read once when it
/// opens (`CatalogStore.snapshot()`: two queries, the shelf tree and the book summaries), then keys move, fold and search in
/// memory; Enter plays the book through the same `Command` the prompt runs. It is redrawn, as the
/// player screen is, after every engine event, so the book playing shows its place moving.
extension Console {
    public func openLibrary() throws {
        let fromPlayer: Bool
        if case .player = fullScreen?.view { fromPlayer = true } else { fromPlayer = false }
        let catalog = try library.catalog.snapshot()
        let browser = LibraryBrowser(shelves: catalog.shelves, books: catalog.books, returnsToPlayer: fromPlayer)
        open(.library(browser), style: screenStyle)
    }

    /// Draws the screen, reading first the lengths of the books coming into view (one query
    /// for all of them, and none once they are known).
    func drawLibrary(_ browser: LibraryBrowser, on screen: FullScreen) {
        var browser = browser
        do {
            try browser.learnLengths(from: library, height: LibraryScreenLayout.paneHeight(screen.size))
            screen.view = .library(browser)
        } catch {
            screen.message.show(TerminalText.visible("library: \(error)"))
        }
        let status = player.status
        let playing = player.loadedBook.map { loaded in
            LibraryScreenLayout.Playing(bookId: loaded.book.id!, positionSeconds: status?.bookPosition,
                                        durationSeconds: status?.bookDuration)
        }
        let layout = LibraryScreenLayout(browser: browser, playing: playing, message: screen.message.text)
        screen.draw(layout.lines(size: screen.size, style: screen.style))
    }

    /// The library changed while the screen shows (the watch, or a socket client's edit): read
    /// it again (the same two queries), keeping the shelf, the search and the book selected.
    func reloadLibraryScreen() {
        guard let screen = fullScreen, case let .library(old) = screen.view else { return }
        do {
            let catalog = try library.catalog.snapshot()
            var browser = LibraryBrowser(shelves: catalog.shelves, books: catalog.books, returnsToPlayer: old.returnsToPlayer)
            browser.carryOver(old)
            browser.keepSelectionVisible(height: LibraryScreenLayout.paneHeight(screen.size))
            screen.view = .library(browser)
        } catch {
            complain(TerminalText.visible("library: \(error)"))
        }
    }

    func handleLibraryKey(_ key: Key) {
        guard let screen = fullScreen, case var .library(browser) = screen.view else { return }
        let action = browser.handle(key, pageHeight: LibraryScreenLayout.paneHeight(screen.size))
        screen.view = .library(browser)
        switch action {
        case nil: break
        case let .play(bookId):
            do {
                // The book loaded carries on where it is (paused: resumes) rather than loading again.
                try commands.execute(.play(player.loadedBook?.book.id == bookId ? nil : "#\(bookId)"))
                screen.view = .player
            } catch {
                complain(TerminalText.visible("play: \(error)"))
            }
        case .back:
            if browser.returnsToPlayer { screen.view = .player } else { closeScreen() }
        }
    }
}
