import Dispatch
import Foundation

/// Turns SIGINT and SIGTERM (or the `signals` given) into a call of `handler` on a queue of its own (not in a signal
/// handler), so a command can stop its engine and save its place before exiting. Keep the
/// returned value alive for as long as the signals should be handled. (`@unchecked`: the
/// sources are touched only in init and deinit.)
final class TerminationSignals: @unchecked Sendable {
    private let sources: [any DispatchSourceSignal]

    init(_ signals: [Int32] = [SIGINT, SIGTERM], _ handler: @escaping @Sendable (Int32) -> Void) {
        // A parent may have started us with these signals blocked (the mask is inherited, e.g.
        // from a test runner's thread): unblock them, or Ctrl-C would never arrive.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for number in signals { sigaddset(&unblock, number) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        let queue = DispatchQueue(label: "abplayer.signals")
        sources = signals.map { number in
            // The default action would kill the process before the handler runs.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { handler(number) }
            source.resume()
            return source
        }
    }

    deinit { sources.forEach { $0.cancel() } }
}
