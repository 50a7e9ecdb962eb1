import ArgumentParser
import Console
import Foundation
import PathNames
import PluginHost
import StandardStreams

/// Where abplayer keeps things, following the XDG base directory spec.
enum Paths {
    /// Nil when neither XDG_CACHE_HOME nor HOME is an absolute path: plugins then get no cache folder.
    static func cacheDirectory(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        XDGDirectory.path("XDG_CACHE_HOME", default: ".cache", environment: environment).map { $0 + "/abplayer" }
    }
}

/// Writes one line to standard error (Swift 6 rejects the C `stderr` global). Every error and
/// plugin log line passes here, and they quote files (names, tags, an MP4 box's type): what
/// came from a file is made visible (`TerminalText`), and a line stays one line.
func printError(_ line: String) {
    StandardStream.error.write(TerminalText.visible(line) + "\n")
}

extension PluginOptions {
    /// Loads every plugin on the search path; plugin warnings go to `warnings` (standard error,
    /// each once), their other lines with --verbose to standard error. A `--decoder-option` that
    /// no loaded decoder takes ends the command with one line each.
    func makeRegistry(warnings: PluginWarnings = PluginWarnings()) throws -> PluginRegistry {
        let verbose = self.verbose
        let registry = PluginRegistry(
            searchPath: .standard(pluginDirectories: pluginDirectories),
            cacheDirectory: Paths.cacheDirectory(),
            decoderOptions: decoderOptions,
            log: { level, pluginID, message in
                if level <= .warning {
                    warnings.say("abplayer: \(pluginID): \(message)")
                } else if verbose {
                    printError("abplayer: \(pluginID): \(message)")
                }
            })
        let problems = registry.decoderOptionProblems
        guard problems.isEmpty else {
            problems.forEach { printError("abplayer: \($0)") }
            throw ExitCode.failure
        }
        return registry
    }
}

extension PluginRegistry {
    /// The output the user named, or one line saying why it is not one and how to name one.
    func resolveOutput(_ text: String) throws -> OutputChoice {
        do {
            return try output(named: text)
        } catch {
            printError("abplayer: --output: \(error.description)")
            throw ExitCode.failure
        }
    }
}
