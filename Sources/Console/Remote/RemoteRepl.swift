import Foundation
import StandardStreams

/// The REPL of a second `abplayer` on a library whose player already runs: every line goes
/// through the control socket and the answers are printed as the REPL prints them. It never
/// opens an engine or writes a position.
public enum RemoteRepl {
    /// Runs `source`'s lines against the player behind `client` until the input ends, `quit`
    /// (which leaves the player running) or the player stops. Returns whether every line
    /// succeeded.
    public static func run(_ source: LineSource, client: ControlClient, firstLine: String? = nil) async -> Bool {
        let (lines, continuation) = AsyncStream.makeStream(of: ConsoleInput.self)
        let lineDone = DispatchSemaphore(value: 0)
        source.start(into: continuation, location: ShelfLocation(), lineDone: lineDone, notices: Notices(),
                     firstLine: firstLine, keyMode: KeyMode())
        var succeeded = true
        loop: for await input in lines {
            guard case let .line(line) = input else { break }
            defer { lineDone.signal() }
            switch check(line, typed: source.isTerminal) {
            case .quit: break loop
            case .skip: continue
            case let .refuse(reason):
                printError(reason)
                succeeded = false
                continue
            case let .send(text):
                do {
                    let reply = try client.send(text)
                    // The reply holds the exact text; this terminal gets it made visible, the
                    // status object (JSON) as it is.
                    for line in reply.output { printOutput(TerminalText.lines(line)) }
                    if let status = reply.status { printOutput(status.json) }
                    for line in reply.errors { printError(TerminalText.lines(line)) }
                    if !reply.ok { succeeded = false }
                    if reply.quit { break loop }
                } catch {
                    printError(TerminalText.visible("abplayer: \(error)"))
                    return false
                }
            }
        }
        return succeeded
    }

    enum Check: Equatable {
        case send(String), skip, quit, refuse(String)
    }

    /// What to do with a line: full screens cannot show through a socket, `quit` leaves only
    /// this client, and an empty line typed at the prompt toggles like in the REPL.
    static func check(_ line: String, typed: Bool) -> Check {
        guard let commands = try? Tokenizer.commands(in: line) else { return .send(line) }
        if commands.isEmpty { return typed ? .send("toggle") : .skip }
        for words in commands {
            guard let command = try? Command(words: words) else { continue }
            if command == .quit { return .quit }
            if case .screen = command {
                return .refuse("\(words[0]): the full screen shows only on the player's own terminal; here use 'status'")
            }
        }
        return .send(line)
    }

    /// Written at once, not through `print`'s buffer: a script on a pipe reads each answer
    /// before sending its next line.
    static func printOutput(_ text: String) {
        StandardStream.output.write(text + "\n")
    }

    static func printError(_ text: String) {
        StandardStream.error.write(text + "\n")
    }
}
