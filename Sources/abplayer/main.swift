// The composition root: parses the command line and runs the chosen command, which wires the
// plugin host to the engine. (Dispatching by hand, as ArgumentParser's @main would, lets the
// entry point stay in main.swift.)
import ArgumentParser
import Console
import Foundation
import StandardStreams

/// Runs an async command's `async` run (through an existential, Swift would pick the inherited
/// synchronous `run()`, which only prints help).
func runAsync<Command: AsyncParsableCommand>(_ command: Command) async throws {
    var command = command
    try await command.run()
}

/// As `Abplayer.exit(withError:)`, but an error quoting a path or a file's content (Foundation's
/// errors name the file) reaches the terminal through TerminalText like every other line.
func exitReporting(_ error: any Error) -> Never {
    let message = Abplayer.fullMessage(for: error)
    let code = Abplayer.exitCode(for: error)
    if code == .success {
        if !message.isEmpty { print(message) }
    } else if !message.isEmpty {
        StandardStream.error.write(TerminalText.lines(message) + "\n")
    }
    exit(code.rawValue)
}

// A closed pipe on standard output or error is then a failed write the player stops on (see
// `StandardStream`), not a SIGPIPE that kills it before it saves its place.
StandardStream.ignoreBrokenPipes()
var command: any ParsableCommand
if TopLevelHelp.isRequested(by: Array(CommandLine.arguments.dropFirst())) {
    print(TopLevelHelp.text)
    exit(0)
}
do {
    switch CommandLineArguments.arranged(Array(CommandLine.arguments.dropFirst())) {
    case let .arguments(arguments):
        command = try Abplayer.parseAsRoot(arguments)
    case let .typo(word, meant):
        printError("abplayer: unknown command '\(TerminalText.visible(word))': did you mean '\(meant)'? ('abplayer --help' lists the commands)")
        exit(ExitCode.validationFailure.rawValue)
    }
} catch {
    exitReporting(error) // the command line's own mistakes: ArgumentParser's words and the usage
}
do {
    if let asyncCommand = command as? any AsyncParsableCommand {
        try await runAsync(asyncCommand)
    } else {
        try command.run()
    }
} catch let error where String(reflecting: type(of: error)).hasPrefix("ArgumentParser.") {
    // Its own kinds (ExitCode, ValidationError, a help request found late): as it reports them.
    exitReporting(error)
} catch {
    // Anything else a command let through (an SQLite or file error no handler caught): one
    // `abplayer:` line, like every failure, never "Error:" with a dump after it.
    printError("abplayer: \(oneLine(error))")
    exit(ExitCode.failure.rawValue)
}

/// A Foundation error as a person reads it, `PATH: reason` (its description is a dump of the
/// NSError's user info); anything else as it describes itself.
func oneLine(_ error: any Error) -> String {
    guard String(reflecting: type(of: error)).contains("NSError") || error is CocoaError else { return "\(error)" }
    let nsError = error as NSError
    let path = nsError.userInfo[NSFilePathErrorKey] as? String
    let reason = (nsError.userInfo[NSUnderlyingErrorKey] as? NSError).map { underlying in
        underlying.domain == NSPOSIXErrorDomain ? String(cString: strerror(Int32(underlying.code))) : underlying.localizedDescription
    } ?? nsError.localizedDescription
    return path.map { "\($0): \(reason)" } ?? reason
}
