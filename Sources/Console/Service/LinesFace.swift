import PathNames
import Player
public import Foundation

/// Where the commands of a face with no terminal come from.
public enum LineSource: Sendable {
    /// `abplayer -c 'play Dune; seek 1:00:00; status'`: the whole script is one line.
    case script(String)
    /// Standard input that is not a terminal: one command per line, no prompt.
    case standardInput
    /// `abplayer --daemon`: no lines at all; the commands come from the control socket and
    /// MPRIS, and only a signal or a remote `quit` ends it.
    case remoteOnly
}

extension LineSource {
    /// Feeds the lines to `inputs` (`firstLine` before them), `.endOfInput` after the last; a
    /// daemon's (`remoteOnly`) never end. For the player's `LinesFace` and a client REPL alike.
    func feed(into inputs: AsyncStream<ConsoleInput>.Continuation, firstLine: String?) {
        if let firstLine { inputs.yield(.line(firstLine)) }
        switch self {
        case .remoteOnly: break
        case let .script(text):
            inputs.yield(.line(text))
            inputs.yield(.endOfInput)
        case .standardInput:
            LinesFace.readStandardInput(into: inputs)
        }
    }
}

/// A face with no terminal: a `-c` script, commands piped in, or a daemon's nothing. Its lines
/// run through the service's command grammar; what they say goes to standard output and error.
/// It ends at the end of its lines (a daemon's never end).
public final class LinesFace: PlayerFace {
    private let source: LineSource
    private let commands: CommandRunner
    /// A command run before the others (`abplayer now` with no terminal).
    private let firstLine: String?

    public init(_ source: LineSource, service: PlayerService, firstLine: String? = nil) {
        self.source = source
        self.firstLine = firstLine
        commands = service.commands
        // Piped lines come one at a time: a question (store the chapters found?) can be answered
        // by the next. A script is one line, run at once.
        if case .script = source { commands.answersFollow = false } else { commands.answersFollow = true }
    }

    public func start(into inputs: AsyncStream<ConsoleInput>.Continuation) {
        source.feed(into: inputs, firstLine: firstLine)
    }

    public func handle(_ input: ConsoleInput) -> FaceVerdict {
        switch input {
        case let .line(line):
            switch commands.execute(line: line) {
            case .quit: return .stop
            case .failed: return .failed
            case .succeeded: return .goOn
            }
        case .endOfInput: return .stop
        default: return .goOn
        }
    }

    /// Standard input's lines, one command each, onto `inputs` from a thread of their own
    /// (reading blocks); `.endOfInput` when it ends.
    public static func readStandardInput(into inputs: AsyncStream<ConsoleInput>.Continuation) {
        let thread = Thread {
            while let line = readLine(strippingNewline: true) { inputs.yield(.line(line)) }
            inputs.yield(.endOfInput)
        }
        thread.name = "abplayer-input"
        thread.start()
    }
}

extension Console {
    /// `$XDG_STATE_HOME/abplayer/history` (default `~/.local/state`), its folder created; nil
    /// when neither XDG_STATE_HOME nor HOME is an absolute path (the prompt keeps no history).
    public static func historyPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        guard let base = XDGDirectory.path("XDG_STATE_HOME", default: ".local/state", environment: environment) else { return nil }
        let folder = base + "/abplayer"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder + "/history"
    }
}
