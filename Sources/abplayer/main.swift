// The composition root: parses the command line and runs the chosen command, which wires the
// plugin host to the engine. (Dispatching by hand, as ArgumentParser's @main would, lets the
// entry point stay in main.swift.)
import ArgumentParser
import Console
import Foundation

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
    // As `Abplayer.exit(withError:)`, but an error quoting a path or a file's content (Foundation's
    // errors name the file) reaches the terminal through TerminalText like every other line.
    let message = Abplayer.fullMessage(for: error)
    let code = Abplayer.exitCode(for: error)
    if code == .success {
        if !message.isEmpty { print(message) }
    } else if !message.isEmpty {
        FileHandle.standardError.write(Data((TerminalText.lines(message) + "\n").utf8))
    }
    exit(code.rawValue)
}
