import Dispatch
import Foundation

/// A full screen while it shows: what it shows and its terminal. Owned by the service's task (the REPL's face).
final class FullScreen {
    enum View {
        case player
        /// The cover of the book being played, filling the screen.
        case cover
        case gallery(Gallery)
        /// The book's bookmarks, to go to one (`B` on the player screen).
        case bookmarks(BookmarkPicker)
        /// The shelves and books (`library`, or L on the player screen).
        case library(LibraryBrowser)
    }

    var view: View
    let style: ScreenStyle
    /// The last notice or error, for a few seconds (`MessageLine.lifetime`).
    let message: MessageLine
    private let terminal: RawTerminal
    /// Decoded covers by book id (nil: the book has none), so a redraw decodes nothing.
    var covers: [Int64: CoverArt.Pixels?] = [:]
    /// The cover drawn beside the player screen's text, for the box it was drawn into: redrawn
    /// only when the book or the box changes, not at every position event.
    var drawnCover: (bookId: Int64, maxColumns: Int, maxRows: Int, art: CoverArt)?

    /// `redraw` is called (on another thread) when a message's time is up.
    init(view: View, style: ScreenStyle, redraw: @escaping @Sendable () -> Void) {
        self.view = view
        self.style = style
        message = MessageLine(expired: redraw)
        terminal = RawTerminal()
    }

    var size: ScreenSize { RawTerminal.size }

    func draw(_ lines: [String]) { terminal.draw(lines) }

    /// Back to the prompt: the terminal as it was.
    func close() {
        terminal.restore()
    }
}

/// The console's full screen, if one shows, and the SIGWINCH source that redraws it.
final class ScreenHost {
    var current: FullScreen?
    /// Made once and kept: here, a signal source made again for SIGWINCH after one was
    /// cancelled did not fire.
    private var resize: (any DispatchSourceSignal)?

    /// Calls `handler` (on a queue of its own) whenever the window changes size, from now on.
    func watchResize(_ handler: @escaping @Sendable () -> Void) {
        guard resize == nil else { return }
        // SIGWINCH is ignored by default; a dispatch source sees it only when no handler takes it.
        signal(SIGWINCH, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: DispatchQueue(label: "abplayer.resize"))
        source.setEventHandler(handler: handler)
        source.resume()
        resize = source
    }
}
