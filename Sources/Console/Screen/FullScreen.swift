import Dispatch
import Foundation

/// A full screen while it shows: what it shows, its terminal, and the SIGWINCH source that
/// redraws it at a new size. Owned by the console's task.
final class FullScreen {
    enum View {
        case player
        /// The cover of the book being played, filling the screen.
        case cover
        case gallery(Gallery)
    }

    var view: View
    let style: ScreenStyle
    /// The last notice or error, shown on the message line until the next one.
    var message: String?
    private let terminal: RawTerminal
    private let resize: any DispatchSourceSignal
    /// Decoded covers by book id (nil: the book has none), so a redraw decodes nothing.
    var covers: [Int64: CoverArt.Pixels?] = [:]

    init(view: View, style: ScreenStyle, onResize: @escaping @Sendable () -> Void) {
        self.view = view
        self.style = style
        terminal = RawTerminal()
        // SIGWINCH is ignored by default; a dispatch source sees it only when no handler takes it.
        signal(SIGWINCH, SIG_IGN)
        resize = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: DispatchQueue(label: "abplayer.resize"))
        resize.setEventHandler(handler: onResize)
        resize.resume()
    }

    var size: ScreenSize { RawTerminal.size }

    func draw(_ lines: [String]) { terminal.draw(lines) }

    /// Back to the prompt: the terminal as it was.
    func close() {
        resize.cancel()
        terminal.restore()
    }
}
