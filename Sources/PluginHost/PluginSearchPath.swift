public import Foundation
import PathNames

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

    /// Absolute paths only: a relative one would mean whatever folder the command runs in.
    public let directories: [Directory]
    /// Relative entries of $ABPLAYER_PLUGIN_PATH, left out (the loader reports each).
    public let ignored: [String]

    public init(directories: [Directory], ignored: [String] = []) {
        self.directories = directories
        self.ignored = ignored
    }

    /// `--plugin-dir` directories, then $ABPLAYER_PLUGIN_PATH, then $XDG_DATA_HOME/abplayer/plugins,
    /// then the plugins installed or built beside the executable (found through /proc/self/exe).
    /// A relative `--plugin-dir` is taken against `currentDirectory`: the user typed it for this
    /// command. A relative entry of $ABPLAYER_PLUGIN_PATH, set once for every command run in any
    /// folder, is ignored, as a relative XDG_DATA_HOME or HOME is (`XDGDirectory`).
    public static func standard(
        pluginDirectories: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
        executablePath: String? = runningExecutable(), currentDirectory: String = FileManager.default.currentDirectoryPath
    ) -> PluginSearchPath {
        var directories = pluginDirectories.map {
            Directory(path: URL(fileURLWithPath: $0, relativeTo: URL(fileURLWithPath: currentDirectory, isDirectory: true)).standardizedFileURL.path,
                      isExplicit: true, filePrefix: "")
        }
        var ignored: [String] = []
        for entry in environment["ABPLAYER_PLUGIN_PATH"]?.split(separator: ":").map(String.init) ?? [] {
            if let path = XDGDirectory.absolute(entry) {
                directories.append(Directory(path: path, isExplicit: true, filePrefix: ""))
            } else {
                ignored.append(entry)
            }
        }
        if let dataHome = XDGDirectory.path("XDG_DATA_HOME", default: ".local/share", environment: environment) {
            directories.append(Directory(path: dataHome + "/abplayer/plugins", isExplicit: false, filePrefix: ""))
        }
        guard let executablePath else { return PluginSearchPath(directories: directories, ignored: ignored) }
        let executable = URL(fileURLWithPath: executablePath).resolvingSymlinksInPath()
        let binDirectory = executable.deletingLastPathComponent()
        directories.append(Directory(
            path: binDirectory.deletingLastPathComponent().appendingPathComponent("lib/abplayer/plugins").path,
            isExplicit: false, filePrefix: ""))
        directories.append(Directory(path: binDirectory.path, isExplicit: false, filePrefix: "libabplayer-"))
        return PluginSearchPath(directories: directories, ignored: ignored)
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
