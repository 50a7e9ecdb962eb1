public import Foundation

/// The XDG base directories abplayer writes to (the REPL's history, cover files): the variable when it
/// is set and not empty, else its default under HOME.
public enum XDGDirectory {
    public static func path(_ variable: String, default relativeToHome: String,
                     environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        environment[variable].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/" + relativeToHome
    }
}
