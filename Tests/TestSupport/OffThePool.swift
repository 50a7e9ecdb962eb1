import Foundation

/// Runs `work` on a thread of its own and waits for it without holding one of Swift's cooperative
/// threads. A test that blocks for seconds (polling a Syncthing pair until it delivers, reading a
/// 50 MB journal in a debug build) would otherwise take one of the pool's two threads on this
/// two-core machine, and two such tests at once stall every async test of the run (a player test
/// waiting for its engine's events then times out).
public func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try work() }) }
        thread.name = "abplayer.test-blocking"
        thread.start()
    }
}
