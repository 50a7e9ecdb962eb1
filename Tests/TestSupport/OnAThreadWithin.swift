import Foundation
import Synchronization

/// `work`'s value, run on a thread of its own, or nil when it has not ended `within` seconds: a
/// test of something that once hung (a named pipe read as a file) fails with a message instead of
/// hanging the whole run. The thread is left to end by itself.
public func onAThread<T: Sendable>(within seconds: Double, _ work: @escaping @Sendable () -> T) -> T? {
    let result = Mutex<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        let value = work()
        result.withLock { $0 = value }
        done.signal()
    }
    thread.name = "abplayer.test-deadline"
    thread.start()
    guard done.wait(timeout: .now() + seconds) == .success else { return nil }
    return result.withLock { $0 }
}
