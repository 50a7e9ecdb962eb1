import Foundation
import Synchronization

/// Messages from the engine (an item ended, the output was lost, the end of the book) on their
/// way to the terminal's prompt. The REPL's task posts them; the line editor's thread, the only
/// one that may touch libedit, prints them on lines of their own above the line being typed and
/// redraws the prompt with what was typed. A pipe wakes the editor's wait for a key.
public final class Notices: Sendable {
    private let queue = Mutex<[String]>([])
    /// Set while the line editor waits for the line being typed: a Ctrl-C then clears that line.
    private let editing = Atomic<Bool>(false)
    /// A Ctrl-C (SIGINT) not yet taken by the line editor.
    private let interrupted = Atomic<Bool>(false)
    /// Readable when messages wait; a byte per message.
    let wakeRead: Int32
    private let wakeWrite: Int32

    init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) != 0 { ends = [-1, -1] }
        wakeRead = ends[0]
        wakeWrite = ends[1]
        // Never block the REPL's task, even if nobody reads.
        _ = fcntl(wakeWrite, F_SETFL, fcntl(wakeWrite, F_GETFL) | O_NONBLOCK)
        _ = fcntl(wakeRead, F_SETFL, fcntl(wakeRead, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    func post(_ message: String) {
        queue.withLock { $0.append(message) }
        wakeEditor()
    }

    private func wakeEditor() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// SIGINT at the terminal: while a line is being typed, the line editor takes it as Ctrl-C
    /// (clears the line, or says how to quit) and this returns true; otherwise false, and the
    /// caller stops the player as for any SIGINT.
    public func interruptLineEditor() -> Bool {
        guard editing.load(ordering: .acquiring) else { return false }
        interrupted.store(true, ordering: .releasing)
        wakeEditor()
        return true
    }

    func setEditing(_ on: Bool) {
        editing.store(on, ordering: .releasing)
        if !on { interrupted.store(false, ordering: .releasing) }
    }

    func takeInterrupt() -> Bool { interrupted.exchange(false, ordering: .acquiringAndReleasing) }

    /// The messages waiting, oldest first; empties the queue and the pipe.
    func take() -> [String] {
        var drain = [UInt8](repeating: 0, count: 256)
        while read(wakeRead, &drain, drain.count) > 0 {}
        return queue.withLock { messages in
            defer { messages = [] }
            return messages
        }
    }
}
