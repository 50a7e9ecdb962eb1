import Dispatch
import Foundation

/// Turns SIGINT and SIGTERM into a call of `handler` on a dispatch queue (not inside a signal
/// handler, where almost nothing is allowed), so `listen` can save the position and exit cleanly.
final class ListenSignals {
    private let sources: [any DispatchSourceSignal]

    init(handler: @escaping @Sendable (Int32) -> Void) {
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { handler(number) }
            source.resume()
            return source
        }
    }

    deinit { sources.forEach { $0.cancel() } }
}
