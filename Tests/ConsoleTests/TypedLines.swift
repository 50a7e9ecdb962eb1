import Console
import Testing

/// A command line as the REPL takes it: its first command, parsed.
func parse(_ line: String) throws -> Command {
    try Command(words: try #require(try Tokenizer.commands(in: line).first))
}

/// What the REPL says to a line it refuses; an issue when the line is taken.
func failure(_ line: String) throws -> String {
    do {
        _ = try parse(line)
    } catch let error as CommandError {
        return error.description
    }
    Issue.record("'\(line)' was taken")
    return ""
}
