import Foundation
import Synchronization

/// A task executor with a thread of its own: async code run with it as the preferred executor
/// (`withTaskExecutorPreference`) never waits for one of Swift's cooperative threads. On this
/// two-core machine the pool has two, and in a full run the blocking tests beside an async one
/// can hold both for minutes; a player service run on the pool then answered nothing for 130 s.
public final class ThreadExecutor: TaskExecutor, Sendable {
    private let jobs = Mutex<[UnownedJob]>([])
    private let ready = DispatchSemaphore(value: 0)

    public init(name: String) {
        let thread = Thread { [self] in
            while true {
                ready.wait()
                guard let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
        thread.name = name
        thread.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        ready.signal()
    }
}
