public import Foundation

/// A private D-Bus session bus (`dbus-daemon` with no service activation), started for one test
/// and stopped by PID when released. `environment` points clients at it.
public final class SessionBus: @unchecked Sendable {
    public let directory: URL
    public let environment: [String: String]

    public init() throws {
        directory = try Harness.shortDirectory("abp-bus")
        environment = try Harness.run("start-dbus.sh", [directory.path])
    }

    deinit {
        _ = try? Command.run(Harness.scripts.appendingPathComponent("stop-dbus.sh").path, [directory.path], timeout: 30)
        try? FileManager.default.removeItem(at: directory)
    }

    /// Waits until `name` has an owner on the bus; false after `timeout` seconds.
    public func waitForName(_ name: String, timeout: Double = 10) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(timeout)
        while clock.now < deadline {
            if let result = try? Command.run("busctl", ["--user", "status", name], environment: environment, timeout: 10),
               result.status == 0 { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }
}
