public import ABPluginABI

/// The host's API table as a plugin instance keeps it. Never call from an audio thread: the
/// host's functions may lock and allocate.
public struct Host: @unchecked Sendable {
    public let api: UnsafePointer<abp_host_api>?
    public let pluginID: String

    public init(_ api: UnsafePointer<abp_host_api>?, pluginID: String) {
        self.api = api
        self.pluginID = pluginID
    }

    public func log(_ level: abp_log_level, _ message: String) {
        guard let api, let log = api.pointee.log else { return }
        log(api.pointee.host_ctx, level, pluginID, message)
    }

    /// The host's cache directory, or nil when it has none.
    public var cacheDirectory: String? {
        guard let api, let cacheDir = api.pointee.cache_dir, let path = cacheDir(api.pointee.host_ctx) else { return nil }
        return String(cString: path)
    }
}
