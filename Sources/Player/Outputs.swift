public import PlayerCore

/// The outputs the REPL can play through, provided by the composition root (which knows the
/// plugins): Console never loads a plugin itself.
public struct Outputs: Sendable {
    /// Opens the output named as on the command line ("null", "wav:PATH", "pulse", ...), or
    /// throws an error whose description is one line saying why not.
    public let open: @Sendable (String) throws -> any SinkOpener
    /// The output to use when none was chosen, for audio of this format.
    public let automatic: @Sendable (AudioFormat) -> String
    /// Names to offer for completion.
    public let names: [String]

    public init(open: @escaping @Sendable (String) throws -> any SinkOpener,
                automatic: @escaping @Sendable (AudioFormat) -> String, names: [String]) {
        self.open = open
        self.automatic = automatic
        self.names = names
    }
}
