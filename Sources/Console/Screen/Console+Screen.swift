import Foundation
public import Library
import Player
import PlayerCore

/// The full screens: `now` (the player), `art` (the cover gallery) and `library` (the browser,
/// in Console+LibraryScreen.swift). Keys become the same command lines and `Command` values the
/// prompt runs, through the service's `CommandRunner`, so automatic bookmarks, undo and saved settings work the same; what a
/// command says goes to the screen's message line.
extension Console {
    var fullScreen: FullScreen? {
        get { screens.current }
        set { screens.current = newValue }
    }

    var screenStyle: ScreenStyle {
        plainMode.restricting(ScreenStyle(environment: ProcessInfo.processInfo.environment, isTerminal: isatty(STDOUT_FILENO) == 1))
    }

    // MARK: ScreenFace

    public var showsScreens: Bool { screenStyle.mode != .plain }

    public func openPlayer() { open(.player, style: screenStyle) }

    public func clearTerminal() { RawTerminal.clear() }

    public func showPaged(_ lines: [String]) {
        // Keys must come from the terminal too, and no screen may be showing (a key's command).
        let style = screenStyle
        guard style.mode != .plain, isatty(STDIN_FILENO) == 1, fullScreen == nil, pager == nil,
              Pager.needsPaging(lines, rows: RawTerminal.size.rows) else {
            return lines.forEach { say($0, exact: false) }
        }
        pager = Pager(lines: lines, style: style)
        keyMode.isOn = true
    }

    /// Back to the prompt from the pager.
    func closePager() {
        guard let pager else { return }
        pager.close()
        self.pager = nil
        keyMode.isOn = false
    }

    public func openGallery(_ books: [BookListing]) { open(.gallery(Gallery(books: books)), style: screenStyle) }

    func open(_ view: FullScreen.View, style: ScreenStyle) {
        if let fullScreen {
            fullScreen.view = view
        } else {
            let inputs = inputs
            screens.watchResize { inputs.yield(.resize) }
            fullScreen = FullScreen(view: view, style: style, redraw: { inputs.yield(.messageExpired) })
            keyMode.isOn = true
        }
        redrawScreen()
    }

    /// Back to the prompt.
    func closeScreen() {
        guard let fullScreen else { return }
        fullScreen.close()
        self.fullScreen = nil
        keyMode.isOn = false
    }

    /// Shows `text` on the message line; false when no screen shows (the caller prints it).
    func showOnScreen(_ text: String) -> Bool {
        guard let fullScreen else { return false }
        fullScreen.message.show(text)
        return true
    }

    func redrawScreen() {
        guard let fullScreen else { return }
        let size = fullScreen.size
        switch fullScreen.view {
        case .player:
            guard let status = player.status else {
                fullScreen.draw([TextFit.truncate("nothing is playing — q back", to: size.columns)])
                return
            }
            var layout = PlayerScreenLayout(status: status, message: fullScreen.message.text)
            // Decoded only when the window is wide enough for it, once per book.
            layout.cover = { [style = fullScreen.style] maxColumns, maxRows in
                if let drawn = fullScreen.drawnCover, drawn.bookId == status.bookId,
                   drawn.maxColumns == maxColumns, drawn.maxRows == maxRows { return drawn.art }
                guard let pixels = self.cover(ofBook: status.bookId) else { return nil }
                let art = CoverArt(pixels, maxColumns: maxColumns, maxRows: maxRows,
                                   colors: style.mode == .color ? style.coverColors : .none)
                fullScreen.drawnCover = (status.bookId, maxColumns, maxRows, art)
                return art
            }
            fullScreen.draw(layout.lines(size: size, style: fullScreen.style))
        case .cover:
            guard let book = player.loadedBook?.book else { return }
            let title = fullScreen.style.styled(TextFit.truncate("\(book.title) — a/q back", to: size.columns), "1")
            if let cover = cover(ofBook: book.id!) {
                let art = CoverArt(cover, maxColumns: size.columns, maxRows: max(1, size.rows - 1),
                                   colors: fullScreen.style.mode == .color ? fullScreen.style.coverColors : .none)
                fullScreen.draw(art.lines + [title])
            } else {
                fullScreen.draw([TextFit.truncate("\(book.title) has no cover", to: size.columns), title])
            }
        case let .gallery(gallery):
            fullScreen.draw(gallery.lines(cover: cover(ofBook: gallery.current.id), size: size, style: fullScreen.style))
        case let .bookmarks(picker):
            fullScreen.draw(picker.lines(size: size, style: fullScreen.style))
        case let .library(browser):
            drawLibrary(browser, on: fullScreen)
        }
    }

    /// The book's cover picture, decoded: the first item that has one, read by its decoder.
    func cover(ofBook bookId: Int64) -> CoverArt.Pixels? {
        if let known = fullScreen?.covers[bookId] { return known }
        let pixels = player.coverPicture(ofBook: bookId).flatMap { CoverArt.Pixels(encoded: $0.data) }
        fullScreen?.covers[bookId] = .some(pixels)
        return pixels
    }

    /// A key pressed while a screen shows.
    func handle(_ key: Key) {
        if let pager {
            if !pager.handle(key) { closePager() }
            return
        }
        guard let fullScreen else { return }
        fullScreen.message.clear()
        // Ctrl-C leaves any screen for the prompt, whatever it was doing (a search typed on the
        // library's included); only `quit` at the prompt, Ctrl-D there or SIGTERM stop the player.
        if key == .interrupt { return closeScreen() }
        switch fullScreen.view {
        case .player: handlePlayerKey(key)
        case .cover:
            switch key {
            case .character("a"), .character("q"), .escape: fullScreen.view = .player
            default: break
            }
        case var .gallery(gallery):
            switch key {
            case .left: gallery.move(by: -1)
            case .right: gallery.move(by: 1)
            case .enter:
                run(.play("#\(gallery.current.id)"))
                fullScreen.view = .player
                redrawScreen()
                return
            case .character("q"), .escape:
                closeScreen()
                return
            default: break
            }
            fullScreen.view = .gallery(gallery)
        case var .bookmarks(picker):
            switch key {
            case .up, .character("k"): picker.move(by: -1)
            case .down, .character("j"): picker.move(by: 1)
            case .enter: return goToBookmark(picker.current)
            case let .character(digit) where digit.isNumber:
                if let place = picker.place(forDigit: digit) { return goToBookmark(place) }
            case .character("q"), .escape:
                fullScreen.view = .player
                redrawScreen()
                return
            default: break
            }
            fullScreen.view = .bookmarks(picker)
        case .library:
            handleLibraryKey(key)
        }
        redrawScreen()
    }

    /// The player screen's `B`: the book's bookmarks on the screen, or a line saying there are none.
    private func showBookmarks() {
        do {
            guard case let .bookmarks(book, places) = try player.perform(.bookmarks(bookId: nil, all: false)) else { return }
            guard !places.isEmpty else { return complain("no bookmarks in \(book) yet: b makes one") }
            fullScreen?.view = .bookmarks(BookmarkPicker(book: book, places: places))
        } catch {
            complain("\(error)")
        }
    }

    /// Goes to a bookmark chosen on the list (an undo point, like `jump N`), back on the player.
    private func goToBookmark(_ place: BookmarkPlace) {
        fullScreen?.view = .player
        run(.jumpToBookmark(place.number))
        redrawScreen()
    }

    private func handlePlayerKey(_ key: Key) {
        // A key that runs a command runs its command line, as typed at the prompt.
        if let line = PlayerScreenKeys.line(for: key) {
            _ = commands.execute(line: line)
            return
        }
        switch key {
        case .character("B"): showBookmarks()
        case .character("a"): fullScreen?.view = .cover
        case .character("L"):
            do { try openLibrary() } catch { complain("\(error)") }
        case .character("q"), .escape: closeScreen()
        default: break
        }
    }

    /// Runs a command for a key; its errors land on the message line like the prompt's.
    private func run(_ command: Command) {
        do {
            try commands.execute(command)
        } catch {
            complain("\(error)")
        }
    }
}
