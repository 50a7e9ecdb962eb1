import Foundation

/// The write end of the pipe the signal handler writes to: a signal handler can reach nothing but
/// a global, and may only do async-signal-safe things (a `write`). Set before the handler is
/// installed and never changed while one is (one `TerminationSignals` lives per process).
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// Turns SIGINT and SIGTERM (or the `signals` given) into a call of `handler` on a thread of its own
/// (not in a signal handler), so a command can stop its engine and save its place before exiting.
/// Keep the returned value alive for as long as the signals should be handled.
///
/// By hand rather than a DispatchSource: on Linux libdispatch reads signals from a signalfd, which
/// sees only signals still pending; one delivered to a thread that does not block it is gone, and
/// about one Ctrl-C in three at the REPL's prompt was lost that way on a loaded machine. A handler
/// (the self-pipe trick) takes the signal on whatever thread it lands.
final class TerminationSignals: Sendable {
    private let signals: [Int32]

    init(_ signals: [Int32] = [SIGINT, SIGTERM], _ handler: @escaping @Sendable (Int32) -> Void) {
        self.signals = signals
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) != 0 { ends = [-1, -1] }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let readEnd = ends[0]
        signalPipeWriteEnd = ends[1]
        Thread.detachNewThread {
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count == 1 { handler(Int32(byte)); continue }
                if count < 0 && errno == EINTR { continue }
                close(readEnd) // the write end closed: no more signals to handle
                return
            }
        }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { number in
            let saved = errno
            var byte = UInt8(truncatingIfNeeded: number)
            _ = write(signalPipeWriteEnd, &byte, 1)
            errno = saved
        }
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        for number in signals { sigaction(number, &action, nil) }
        // A parent may have started us with these signals blocked (the mask is inherited, e.g.
        // from a test runner's thread): unblock them, or Ctrl-C would never arrive.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for number in signals { sigaddset(&unblock, number) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    }

    deinit {
        // Ignored from here on, as they were once the sources were cancelled; the reader thread
        // ends when the write end closes.
        for number in signals { signal(number, SIG_IGN) }
        let writeEnd = signalPipeWriteEnd
        signalPipeWriteEnd = -1
        close(writeEnd)
    }
}
