public import PlayerCore

/// The outputs the REPL can play through, provided by the composition root (which knows the
/// plugins): Console never loads a plugin itself.
public struct Outputs: Sendable {
    /// Opens the output named as on the command line ("null", "wav:PATH", "pulse", ...), or
    /// throws an error whose description is one line saying why not.
    public let open: @Sendable (String) throws -> any SinkOpener
    /// The output to use when none was chosen, for audio of this format.
    public let automatic: @Sendable (AudioFormat) -> AutomaticOutput
    /// Names to offer for completion.
    public let names: [String]

    public init(open: @escaping @Sendable (String) throws -> any SinkOpener,
                automatic: @escaping @Sendable (AudioFormat) -> AutomaticOutput, names: [String]) {
        self.open = open
        self.automatic = automatic
        self.names = names
    }
}

/// The output chosen when none was named, and what the listener must hear about the choice (no
/// output answered, so it plays to a fallback): the player says it as a notice, so the REPL,
/// `listen` and a client of the socket all show it, not only the process's standard error.
public struct AutomaticOutput: Sendable, Equatable {
    public let name: String
    public let warning: String?

    public init(name: String, warning: String? = nil) {
        self.name = name
        self.warning = warning
    }
}
