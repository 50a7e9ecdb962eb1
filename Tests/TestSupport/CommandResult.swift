public import Foundation

/// What a finished child process left behind.
public struct CommandResult: Sendable {
    /// The exit status, or 128 + the signal number when a signal ended the process (the shell's
    /// convention), so a crash never reads as success.
    public let status: Int32
    public let stdout: Data
    public let stderr: String
    /// The command line as run, for error messages.
    public let commandLine: String

    public init(status: Int32, stdout: Data, stderr: String, commandLine: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
        self.commandLine = commandLine
    }

    /// Standard output decoded as UTF-8 (lossy: a stray byte must not hide the rest).
    public var stdoutString: String { String(decoding: stdout, as: UTF8.self) }

    /// Returns `self` when the command exited with status 0; otherwise throws `CommandError.failed`
    /// carrying the status and standard error, which is where encoders say what went wrong.
    @discardableResult
    public func requireSuccess() throws -> CommandResult {
        guard status == 0 else {
            throw CommandError.failed(commandLine: commandLine, status: status, stderr: stderr)
        }
        return self
    }
}
