public import Foundation

/// Where plugins are looked for, in order; the first plugin found with an id wins.
public struct PluginSearchPath: Sendable, Equatable {
    public struct Directory: Sendable, Equatable {
        public let path: String
        /// Named by the user (`--plugin-dir`, $ABPLAYER_PLUGIN_PATH): a missing one is reported.
        public let isExplicit: Bool
        /// Only files named like this are considered (the build directory next to the executable
        /// holds other shared objects too).
        public let filePrefix: String

        public init(path: String, isExplicit: Bool, filePrefix: String) {
            self.path = path
            self.isExplicit = isExplicit
            self.filePrefix = filePrefix
        }
    }

    public let directories: [Directory]

    public init(directories: [Directory]) { self.directories = directories }

    /// `--plugin-dir` directories, then $ABPLAYER_PLUGIN_PATH, then $XDG_DATA_HOME/abplayer/plugins,
    /// then the plugins installed or built beside the executable (found through /proc/self/exe).
    public static func standard(
        pluginDirectories: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
        executablePath: String? = runningExecutable()
    ) -> PluginSearchPath {
        var directories = pluginDirectories.map { Directory(path: $0, isExplicit: true, filePrefix: "") }
        if let list = environment["ABPLAYER_PLUGIN_PATH"] {
            directories += list.split(separator: ":").map { Directory(path: String($0), isExplicit: true, filePrefix: "") }
        }
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        directories.append(Directory(path: dataHome + "/abplayer/plugins", isExplicit: false, filePrefix: ""))
        guard let executablePath else { return PluginSearchPath(directories: directories) }
        let executable = URL(fileURLWithPath: executablePath).resolvingSymlinksInPath()
        let binDirectory = executable.deletingLastPathComponent()
        directories.append(Directory(
            path: binDirectory.deletingLastPathComponent().appendingPathComponent("lib/abplayer/plugins").path,
            isExplicit: false, filePrefix: ""))
        directories.append(Directory(path: binDirectory.path, isExplicit: false, filePrefix: "libabplayer-"))
        return PluginSearchPath(directories: directories)
    }

    /// The running executable's own path, from the kernel: never `argv[0]`, which for a command
    /// found on $PATH is a bare name that would resolve against the current directory (and load
    /// whatever `libabplayer-*.so` lies there). Nil when /proc is not mounted: then no directory
    /// beside the executable is searched.
    public static func runningExecutable() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
