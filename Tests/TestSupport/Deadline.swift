import Foundation

// How a test waits. scripts/check-test-sleeps.sh (run by `make test`) refuses any other fixed sleep
// of 0.2 s or more under Tests/, and any sleep of a computed time outside this file.

/// The one way a real-time test waits: for a condition, with a generous deadline, never for a
/// fixed time (a fixed sleep is a bet that the machine keeps up, and a loaded CI machine loses it).
/// True once `condition` holds; false when `seconds` pass first.
///
/// Disfavoured so that async code gets the async twin even for a condition with no `await` in it
/// (which Swift would otherwise type as a plain closure and hand to this one, blocking a thread of
/// the cooperative pool); synchronous code can only call this one.
@_disfavoredOverload
public func waitUntil(within seconds: Double, every interval: Double = 0.05, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while true {
        if try condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        Thread.sleep(forTimeInterval: interval)
    }
}

/// The async twin, for tests on the cooperative pool (two threads on the CI machine): it waits as
/// a task, so the pool's threads stay free for the other tests while it waits.
public func waitUntil(within seconds: Double, every interval: Double = 0.05,
                      _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while true {
        if try await condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(Int(interval * 1000)))
    }
}

/// Lets `seconds` of real time pass because that passing is what the test is about: the product
/// measures it (a listener away 11 s is rewound; a line left unfinished past the socket's deadline
/// is dropped), or the test checks that nothing happens while it passes (a paused player stays
/// put). Never a way to wait for something to happen: that is `waitUntil(within:)`. `reason` says
/// which real time is measured, for the reader and for scripts/check-test-sleeps.sh, which allows
/// this call only with a reason.
@_disfavoredOverload
public func letRealTimePass(seconds: Double, because reason: String) {
    precondition(!reason.isEmpty, "letRealTimePass needs a reason")
    Thread.sleep(forTimeInterval: seconds)
}

/// The async twin of `letRealTimePass(seconds:because:)`: the time passes as a task.
public func letRealTimePass(seconds: Double, because reason: String) async {
    precondition(!reason.isEmpty, "letRealTimePass needs a reason")
    try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
}

/// Calls `action` once `seconds` have passed, unless the returned task is cancelled first: the
/// deadline of a wait that is not a poll (reading a stream until an event comes, which `action`
/// then ends). Cancel it once the wait is over.
@discardableResult
public func atDeadline(in seconds: Double, _ action: @escaping @Sendable () -> Void) -> Task<Void, Never> {
    Task {
        try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
        if !Task.isCancelled { action() }
    }
}
