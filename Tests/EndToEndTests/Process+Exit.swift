import Foundation
import TestSupport

extension Process {
    /// Waits (blocking this thread) for the process to end; its exit status, or nil when it was
    /// still running after `timeout` seconds and had to be killed.
    func exitStatus(killingAfter timeout: TimeInterval) -> Int32? {
        guard waitForEnd(timeout: timeout) else {
            kill()
            return nil
        }
        return endStatus
    }
}
