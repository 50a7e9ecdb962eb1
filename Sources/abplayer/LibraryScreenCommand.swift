import ArgumentParser

/// `abplayer library`: the REPL started straight into the library screen (q leaves it for the
/// prompt); while a player runs on the library, the screen attached to it.
struct LibraryScreenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "library", abstract: "The library screen: shelves and books to browse, search and play.",
        discussion: "Takes the REPL's options. Keys: ↑/↓ or j/k move, Tab the other pane, ←/→ fold a shelf, / search, Enter play, q or Ctrl-C the prompt. While a player runs on the library (a daemon, another terminal's REPL), the screen drives it.")

    @OptionGroup var repl: Repl

    func run() async throws {
        try await repl.run(firstLine: "library")
    }
}
