import ArgumentParser
import PluginHost

/// `abplayer --version` (rewritten to this hidden command by `CommandLineArguments`, so that
/// `--plugin-dir` before it counts): abplayer's version, the plugin ABI it speaks, and each
/// plugin loaded with the version its descriptor gives. (Not ArgumentParser's `version:`,
/// a fixed string that cannot name the plugins found at run time.)
struct VersionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "version", abstract: "abplayer's version, the plugin ABI and each plugin's version.", shouldDisplay: false)

    /// abplayer's own version: raised with each release.
    static let abplayer = "0.1.0"

    @OptionGroup var plugins: PluginOptions

    // The other shared options may come before --version too; they change nothing here.
    @Option(name: .customLong("library"), help: .hidden) var library: String?
    @Option(help: .hidden) var output: String?

    func run() throws {
        let registry = try plugins.makeRegistry()
        print("abplayer \(Self.abplayer)")
        print("plugin ABI \(PluginABI.version)")
        guard !registry.plugins.isEmpty else {
            print("no plugins loaded ('abplayer plugins' says where they were looked for)")
            return
        }
        print("plugins:")
        for plugin in registry.plugins { print("  \(plugin.id) \(plugin.version) (\(plugin.kind.rawValue))") }
    }
}
