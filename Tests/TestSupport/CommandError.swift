import Foundation

/// Why `Command.run` could not produce a successful result.
public enum CommandError: Error, CustomStringConvertible {
    /// No executable with this name on PATH; the Debian package is probably not installed.
    case notFound(executable: String, searchPath: String)
    case launchFailed(commandLine: String, reason: String)
    /// The process outlived its time limit and was killed with SIGKILL.
    case timedOut(commandLine: String, seconds: Double)
    /// Thrown by `CommandResult.requireSuccess()`.
    case failed(commandLine: String, status: Int32, stderr: String)

    public var description: String {
        switch self {
        case let .notFound(executable, searchPath):
            "\(executable): not found on PATH (\(searchPath)); install the Debian package that provides it"
        case let .launchFailed(commandLine, reason):
            "could not launch `\(commandLine)`: \(reason)"
        case let .timedOut(commandLine, seconds):
            "`\(commandLine)` did not finish within \(seconds) s and was killed"
        case let .failed(commandLine, status, stderr):
            "`\(commandLine)` exited with status \(status): \(stderr.trimmingCharacters(in: .whitespacesAndNewlines))"
        }
    }
}
