import Foundation

extension Process {
    /// Waits (blocking this thread) for the process to end; its exit status, or nil when it was
    /// still running after `timeout` seconds and had to be killed.
    func exitStatus(killingAfter timeout: TimeInterval) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while isRunning {
            guard Date() < deadline else {
                kill(processIdentifier, SIGKILL)
                return nil
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return terminationStatus
    }
}
