import Foundation
import PluginHost

/// Where abplayer keeps things, following the XDG base directory spec.
enum Paths {
    static func cacheDirectory(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.cache"
        return base + "/abplayer"
    }
}

/// Writes one line to standard error (Swift 6 rejects the C `stderr` global).
func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

extension PluginOptions {
    /// Loads every plugin on the search path; plugin log lines go to standard error.
    func makeRegistry() -> PluginRegistry {
        let verbose = self.verbose
        return PluginRegistry(
            searchPath: .standard(pluginDirectories: pluginDirectories),
            cacheDirectory: Paths.cacheDirectory(),
            log: { level, pluginID, message in
                if level <= .warning || verbose { printError("abplayer: \(pluginID): \(message)") }
            })
    }
}
