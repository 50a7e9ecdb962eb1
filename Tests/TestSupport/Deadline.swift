import Foundation

/// The one way a real-time test waits: for a condition, with a generous deadline, never for a
/// fixed time (a fixed sleep is a bet that the machine keeps up, and a loaded CI machine loses it).
/// True once `condition` holds; false when `seconds` pass first.
public func waitUntil(within seconds: Double, every interval: Double = 0.05, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while true {
        if try condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        Thread.sleep(forTimeInterval: interval)
    }
}
