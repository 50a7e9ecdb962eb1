import ArgumentParser

/// `abplayer now`: the REPL started straight into the player screen; q leaves it for the prompt.
struct Now: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "now", abstract: "The player screen: the book being played, or the one played last.",
        discussion: "Takes the REPL's options. Keys: space play/pause, ←/→ skip, h/l one minute, ↑/↓ volume, [/] speed, n/p item, c/C chapter, b bookmark, u undo, s sleep timer, a cover art, q or Ctrl-C the prompt.")

    @OptionGroup var repl: Repl

    func run() async throws {
        try await repl.run(firstLine: "now")
    }
}
