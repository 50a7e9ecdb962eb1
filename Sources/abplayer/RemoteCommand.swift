import ArgumentParser
import Console
import Foundation
import StandardStreams

/// `abplayer remote COMMAND...`: one command line to the player running on a library, through
/// its control socket.
struct Remote: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remote", abstract: "Send a command to the running player (the REPL's commands, or 'subscribe').",
        discussion: """
            The words are joined into one REPL line (quoted back as typed; a single word is sent as it is, so 'play Dune; status' works as with -c). Prints what the player said: output \
            on standard output, errors on standard error; exit status 0 when it succeeded. 'subscribe' prints \
            the player's events as JSON lines until Ctrl-C. \(ControlSocketPath.helpText)
            """)

    @OptionGroup var library: LibraryOptions

    @Flag(help: "Print the player's reply as it came: one JSON object (ok, output, errors, quit, status).")
    var json = false

    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("The command and its arguments, e.g. play \"War and Peace\"", valueName: "COMMAND"))
    var words: [String] = []

    func validate() throws {
        // The words are captured as they come (so `status --json` reaches the player), which
        // takes `--help` too.
        if words.first == "--help" || words.first == "-h" { throw CleanExit.helpRequest(self) }
        if words.isEmpty { throw ValidationError("say which command to send, e.g. 'abplayer remote status'") }
    }

    func run() throws {
        let client = try library.connectToPlayer()
        let line = words.count == 1 ? words[0] : words.map(Tokenizer.quoted).joined(separator: " ")
        do {
            if line == "subscribe" {
                try client.write(line)
                _ = client.readLine() // the acknowledgement
                while let event = client.readLine() {
                    // Whoever read the events left (`| head -1`, a closed terminal): done.
                    guard case .success = StandardStream.output.write(event + "\n") else { return }
                }
                throw ControlSocketError("the player at \(client.path) stopped")
            }
            let reply = try client.send(line)
            if json {
                let encoder = JSONEncoder.forScripts
                StandardStream.output.write(encoder.line(reply) + "\n")
            } else {
                // Exact text in the reply, made visible for the terminal; the status object as it is.
                for line in reply.output { StandardStream.output.write(TerminalText.lines(line) + "\n") }
                if let status = reply.status { StandardStream.output.write(status.json + "\n") }
                for line in reply.errors { printError(line) }
            }
            if !reply.ok { throw ExitCode.failure }
        } catch let error as ControlSocketError {
            printError("abplayer: \(error)")
            throw ExitCode.failure
        }
    }
}
