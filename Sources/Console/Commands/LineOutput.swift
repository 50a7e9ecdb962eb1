/// Where the lines a command says go: a terminal (its prompt, its screen's message line),
/// standard output and error, or a control socket client's reply (`OutputCapture`).
public protocol CommandOutput: AnyObject {
    /// A line (or lines) of what a command did; control characters from files are already
    /// made visible by the caller where a file's text is shown.
    func say(_ text: String, exact: Bool)
    /// What went wrong, one line.
    func complain(_ text: String)
}

/// Where what the line being run says goes: a socket client's reply while its line runs
/// (`capture`), else the face's `output`. The command runner and its library commands share
/// one, so every line of a command ends in the same place.
final class LineOutput {
    /// Where what is said goes when no remote line is running.
    var output: any CommandOutput
    /// Where what is said goes while a remote line runs.
    var capture: OutputCapture?

    init(_ output: any CommandOutput) {
        self.output = output
    }

    // The terminal's edge: a socket client gets the exact text in its JSON reply (and shows it
    // through `TerminalText` itself); a terminal gets control characters from files shown visibly.
    func say(_ text: String) { write(text, exact: false) }

    /// JSON as it is: its escaping already keeps it harmless, and its strings must stay exact.
    func sayExactly(_ text: String) { write(text, exact: true) }

    private func write(_ text: String, exact: Bool) {
        if let capture { capture.output += OutputCapture.lines(text); return }
        output.say(text, exact: exact)
    }

    func complain(_ text: String) {
        if let capture { capture.errors += OutputCapture.lines(text); return }
        output.complain(text)
    }
}
