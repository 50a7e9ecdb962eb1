import Foundation
import Synchronization

/// Work done on another thread while the caller does its own, and its result waited for.
final class BackgroundWork<Value: Sendable>: Sendable {
    private let done = DispatchGroup()
    private let value = Mutex<Result<Value, any Error>?>(nil)

    init(_ work: @escaping @Sendable () throws -> Value) {
        DispatchQueue.global().async(group: done) {
            let result = Result { try work() }
            self.value.withLock { $0 = result }
        }
    }

    /// What the work gave, once it is done; asked once. Taken out, not copied: a copy kept here
    /// would make the caller's first change to it copy its arrays (a merge's million places).
    func result() throws -> Value {
        done.wait()
        return try value.withLock { value in defer { value = nil }; return value! }.get()
    }
}

/// Lets `value` go on another thread: the last reference to the journals of 100 devices with
/// 10,000 books each, dropped where an exchange goes on, took it a tenth of a second of freeing.
/// Held in a box that only that thread empties, so it is never freed here, whichever of the two
/// lets go of the box last.
func releaseInBackground<Value: Sendable>(_ value: consuming Value) {
    let leaving = Leaving(value)
    DispatchQueue.global(qos: .utility).async { leaving.value.withLock { $0 = nil } }
}

private final class Leaving<Value: Sendable>: Sendable {
    let value: Mutex<Value?>

    init(_ value: consuming Value) { self.value = Mutex(value) }
}
