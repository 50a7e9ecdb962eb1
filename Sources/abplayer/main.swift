// The composition root: parses the command line and runs the chosen command, which wires the
// plugin host to the engine. (Dispatching by hand, as ArgumentParser's @main would, lets the
// entry point stay in main.swift.)
import ArgumentParser

/// Runs an async command's `async` run (through an existential, Swift would pick the inherited
/// synchronous `run()`, which only prints help).
func runAsync<Command: AsyncParsableCommand>(_ command: Command) async throws {
    var command = command
    try await command.run()
}

do {
    var command = try Abplayer.parseAsRoot()
    if let asyncCommand = command as? any AsyncParsableCommand {
        try await runAsync(asyncCommand)
    } else {
        try command.run()
    }
} catch {
    Abplayer.exit(withError: error)
}
