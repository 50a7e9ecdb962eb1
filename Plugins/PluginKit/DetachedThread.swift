#if canImport(Glibc)
import Glibc
#endif

/// Runs `body` on a thread of its own that nobody joins: for work the caller must not wait on
/// (a library call that may never return). False when no thread could be made; `body` has not
/// run then.
public func startDetachedThread(_ body: @escaping () -> Void) -> Bool {
    final class Work {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }
    let context = Unmanaged.passRetained(Work(body)).toOpaque()
    var handle = pthread_t()
    guard pthread_create(&handle, nil, { context in
        let work = Unmanaged<Work>.fromOpaque(context!).takeRetainedValue()
        work.body()
        return nil
    }, context) == 0 else {
        Unmanaged<Work>.fromOpaque(context).release()
        return false
    }
    pthread_detach(handle)
    return true
}
