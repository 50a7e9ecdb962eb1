import Foundation
import Synchronization

/// Whether the terminal's reader thread reads single keys (a full screen shows) or lines (the
/// prompt). The REPL's task flips it; the reader checks it after each line or key is handled, so
/// there is one reader of standard input at any time.
public final class KeyMode: Sendable {
    private let on = Mutex(false)

    public init() {}

    public var isOn: Bool {
        get { on.withLock { $0 } }
        set { on.withLock { $0 = newValue } }
    }

    /// Reads keys from standard input (in raw mode) into `inputs` while the mode is on, waiting
    /// for each key to be handled before reading on. Returns false at the end of the input.
    func readKeys(into inputs: AsyncStream<ConsoleInput>.Continuation, handled: DispatchSemaphore) -> Bool {
        var parser = KeyParser()
        var byte: UInt8 = 0
        while isOn {
            // One byte at a time: what is typed after q belongs to the prompt's line editor,
            // so nothing past the last key may be taken from the terminal.
            let count = read(STDIN_FILENO, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            var keys = parser.keys(from: [byte])
            // The rest of an escape sequence comes in the same burst; a lone ESC is the Esc key.
            if parser.isWaiting, !Self.inputArrives(withinMilliseconds: 50) { keys += parser.flush() }
            for key in keys {
                inputs.yield(.key(key))
                handled.wait()
                if !isOn { break }
            }
        }
        return true
    }

    private static func inputArrives(withinMilliseconds timeout: Int32) -> Bool {
        var request = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        return poll(&request, 1, timeout) > 0
    }
}
