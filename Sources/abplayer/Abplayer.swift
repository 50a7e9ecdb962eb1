import ArgumentParser

struct Abplayer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "abplayer",
        abstract: "A terminal audiobook player.",
        subcommands: [Repl.self, Probe.self, Decode.self, Plugins.self, Play.self,
                      Import.self, Books.self, Shelves.self, ShelfCommand.self, BookCommand.self, Listen.self,
                      Bookmarks.self, History.self, Stats.self, Browse.self, Rescan.self, Export.self, ImportState.self,
                      GenerateLibrary.self, Now.self, Remote.self],
        defaultSubcommand: Repl.self
    )
}

/// Options every command that loads plugins takes.
struct PluginOptions: ParsableArguments {
    @Option(name: .customLong("plugin-dir"), help: ArgumentHelp(
        "Look for plugins in DIR first (repeatable).", valueName: "DIR"))
    var pluginDirectories: [String] = []

    @Flag(name: .shortAndLong, help: "Show the plugins' informational log lines.")
    var verbose = false
}
