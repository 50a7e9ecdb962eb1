public import Foundation

/// A private Syncthing instance (Tests/Harness/start-syncthing.sh): its own home, its REST API and
/// sync protocol on free ports of 127.0.0.1, no discovery, relays or internet. Stopped by PID when
/// released.
public final class SyncthingInstance: Sendable {
    public let directory: URL
    /// The folder this instance shares with its peer (made by `SyncthingPair`).
    public let folder: URL
    public let deviceID: String
    let api: String
    let key: String
    let listenPort: Int

    init(name: String) throws {
        directory = try Harness.shortDirectory("abp-st-\(name)")
        folder = directory.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        listenPort = try SnapServer.freePort()
        let exports = try Harness.run("start-syncthing.sh", [directory.path, String(try SnapServer.freePort()), String(listenPort)])
        guard let api = exports["ST_API"], let key = exports["ST_KEY"], let id = exports["ST_ID"] else {
            throw FixtureError.serverFailed("start-syncthing.sh printed no ST_API, ST_KEY or ST_ID: \(exports)")
        }
        (self.api, self.key, deviceID) = (api, key, id)
    }

    deinit {
        _ = try? Command.run(Harness.scripts.appendingPathComponent("stop-syncthing.sh").path, [directory.path], timeout: 30)
        try? FileManager.default.removeItem(at: directory)
    }

    /// A REST call; the reply's body.
    @discardableResult
    func call(_ method: String, _ path: String, json: Any? = nil) throws -> Data {
        var arguments = ["-fsS", "-m", "10", "-X", method, "-H", "X-API-Key: \(key)"]
        if let json {
            arguments += ["-H", "Content-Type: application/json", "--data-binary", "@-"]
            let body = try JSONSerialization.data(withJSONObject: json)
            let result = try Command.run("curl", arguments + [api + path], stdin: body, timeout: 30)
            guard result.status == 0 else { throw FixtureError.serverFailed("syncthing \(method) \(path): \(result.stderr)") }
            return result.stdout
        }
        let result = try Command.run("curl", arguments + [api + path], timeout: 30)
        guard result.status == 0 else { throw FixtureError.serverFailed("syncthing \(method) \(path): \(result.stderr)") }
        return result.stdout
    }

    func isConnected(to peer: String) -> Bool {
        guard let data = try? call("GET", "/rest/system/connections"),
              let reply = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let connections = reply["connections"] as? [String: Any],
              let connection = connections[peer] as? [String: Any] else { return false }
        return connection["connected"] as? Bool == true
    }

    /// Whether the shared folder has started and finished its first scan (its watcher is up:
    /// a file written before that could be missed until the hourly rescan).
    func folderIsIdle() -> Bool {
        guard let data = try? call("GET", "/rest/db/status?folder=\(SyncthingPair.folderID)"),
              let reply = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return false }
        return reply["state"] as? String == "idle"
    }

    /// Asks for the shared folder to be scanned now (what the watcher would have seen).
    public func scan() throws {
        try call("POST", "/rest/db/scan?folder=\(SyncthingPair.folderID)")
    }

    /// Stops syncing with everyone (the device offline) or starts again.
    public func setPaused(_ paused: Bool) throws {
        try call("POST", paused ? "/rest/system/pause" : "/rest/system/resume")
    }
}

/// Two Syncthing instances that know each other by static address and share one folder
/// (`a.folder` and `b.folder`), connected when made.
public final class SyncthingPair: Sendable {
    public let a: SyncthingInstance
    public let b: SyncthingInstance
    static let folderID = "abplayer-sync"

    public init(timeout: Double = 60) throws {
        a = try SyncthingInstance(name: "a")
        b = try SyncthingInstance(name: "b")
        for (me, peer) in [(a, b), (b, a)] {
            try me.call("POST", "/rest/config/devices", json: [
                "deviceID": peer.deviceID, "name": peer === a ? "a" : "b", "addresses": ["tcp://127.0.0.1:\(peer.listenPort)"],
            ] as [String: Any])
        }
        for me in [a, b] {
            try me.call("POST", "/rest/config/folders", json: [
                "id": SyncthingPair.folderID, "label": SyncthingPair.folderID, "path": me.folder.path, "type": "sendreceive",
                "devices": [["deviceID": a.deviceID], ["deviceID": b.deviceID]],
                // Changes are seen by inotify within a second; the full rescan is only a fallback.
                "rescanIntervalS": 3600, "fsWatcherEnabled": true, "fsWatcherDelayS": 1,
            ] as [String: Any])
        }
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(timeout)
        while !(a.isConnected(to: b.deviceID) && b.isConnected(to: a.deviceID) && a.folderIsIdle() && b.folderIsIdle()) {
            guard clock.now < deadline else {
                throw FixtureError.serverFailed("the two Syncthing instances did not connect and scan their folders in \(timeout) s")
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }
}
