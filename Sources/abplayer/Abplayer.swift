import ArgumentParser
import PluginHost

struct Abplayer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "abplayer",
        abstract: "A terminal audiobook player.",
        subcommands: [Repl.self, Probe.self, Decode.self, Plugins.self, Play.self,
                      Import.self, Books.self, Shelves.self, ShelfCommand.self, BookCommand.self, Listen.self,
                      Bookmarks.self, History.self, Stats.self, Browse.self, Rescan.self, Export.self, ImportState.self,
                      GenerateLibrary.self, Now.self, LibraryScreenCommand.self, Remote.self, Sync.self, LoudnessCommand.self,
                      VersionCommand.self, CommandsDocCommand.self, ManualPageCommand.self],
        defaultSubcommand: Repl.self
    )
}

/// Options every command that loads plugins takes.
struct PluginOptions: ParsableArguments {
    @Option(name: .customLong("plugin-dir"), help: ArgumentHelp(
        "Look for plugins in DIR first (repeatable).", valueName: "DIR"))
    var pluginDirectories: [String] = []

    @Option(name: .customLong("decoder-option"), help: ArgumentHelp(
        "Give a decoder an option, as ID.key=value (repeatable; `abplayer plugins ID` lists them).", valueName: "ID.KEY=VALUE"),
            transform: parseDecoderOption)
    var decoderOptions: [DecoderOption] = []

    @Flag(name: .shortAndLong, help: "Show the plugins' informational log lines.")
    var verbose = false
}

private func parseDecoderOption(_ text: String) throws -> DecoderOption {
    do { return try DecoderOption(parsing: text) } catch { throw ValidationError(error.description) }
}
