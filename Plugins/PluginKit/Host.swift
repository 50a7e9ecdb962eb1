public import ABPluginABI

/// The host's API table as a plugin instance keeps it. Never call from an audio thread: the
/// host's functions may lock and allocate.
public struct Host: @unchecked Sendable {
    public let api: UnsafePointer<abp_host_api>?
    public let pluginID: String
    /// The file or device an instance works on; its log lines start with it, so a user reading
    /// a warning knows which file it is about.
    public let subject: String?

    public init(_ api: UnsafePointer<abp_host_api>?, pluginID: String, subject: String? = nil) {
        self.api = api
        self.pluginID = pluginID
        self.subject = subject
    }

    public func log(_ level: abp_log_level, _ message: String) {
        guard let api, let log = api.pointee.log else { return }
        log(api.pointee.host_ctx, level, pluginID, subject.map { "\($0): \(message)" } ?? message)
    }

    /// The host's cache directory, or nil when it has none.
    public var cacheDirectory: String? {
        guard let api, let cacheDir = api.pointee.cache_dir, let path = cacheDir(api.pointee.host_ctx) else { return nil }
        return String(cString: path)
    }
}
