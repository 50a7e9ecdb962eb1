public import Foundation

/// Where the built abplayer and its plugins are: $ABPLAYER_BIN_DIR (set by `make test`), else the
/// package's .build/debug.
public enum BuildProducts {
    public static let packageDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static var binDirectory: URL {
        if let dir = ProcessInfo.processInfo.environment["ABPLAYER_BIN_DIR"], !dir.isEmpty {
            return URL(fileURLWithPath: dir)
        }
        return packageDirectory.appendingPathComponent(".build/debug")
    }

    public static var abplayer: URL { binDirectory.appendingPathComponent("abplayer") }

    public static func plugin(_ id: String) -> URL { binDirectory.appendingPathComponent("libabplayer-\(id).so") }

    public static var sdkInclude: URL { packageDirectory.appendingPathComponent("plugin-sdk/include") }

    /// A fresh empty directory for one test.
    public static func temporaryDirectory(_ name: String) throws -> URL {
        let url = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("abplayer-test-\(name)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
