import ABPluginABI

/// The plugin ABI this host speaks, from plugin.h: a plugin built for the same major and a
/// minor not newer than this one loads (`--version` says it, so a plugin's author knows which
/// header to build against).
public enum PluginABI {
    public static let major = Int(ABP_ABI_MAJOR)
    public static let minor = Int(ABP_ABI_MINOR)

    /// "1.0".
    public static var version: String { "\(major).\(minor)" }
}
