public import Foundation

/// The XDG base directories (the library, plugins, the REPL's history, caches, the control
/// socket), by the XDG Base Directory spec: "If an implementation encounters a relative path in
/// any of these variables it should consider the path invalid and ignore it." A relative path
/// would be taken against whatever the current directory is, so `XDG_DATA_HOME=.` run in a
/// downloaded folder made its `./abplayer/plugins` a trusted plugin directory. HOME is held to the
/// same rule: a relative HOME gives no default at all.
public enum XDGDirectory {
    /// `$variable` when it is an absolute path; else `$HOME/relativeToHome`; nil when neither is
    /// absolute (`noDefaultReason` says so in a line).
    public static func path(_ variable: String, default relativeToHome: String,
                            environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        absolute(environment[variable]) ?? home(environment: environment).map { $0 + "/" + relativeToHome }
    }

    /// `path` when it is an absolute path, else nil (unset, empty or relative).
    public static func absolute(_ path: String?) -> String? {
        guard let path, path.hasPrefix("/") else { return nil }
        return path
    }

    /// HOME when it is absolute; unset or empty, the home of the user's passwd entry; nil when it
    /// is relative (no default is made of it). Not `NSHomeDirectory()`, which returns HOME as it is.
    public static func home(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let home = environment["HOME"], !home.isEmpty { return absolute(home) }
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return nil }
        return absolute(String(cString: directory))
    }

    /// Why `variable` gives no directory: one clause for an error line.
    public static func noDefaultReason(_ variable: String,
                                       environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        func shown(_ name: String) -> String {
            environment[name].map { $0.isEmpty ? "\(name) is empty" : "\(name)=\($0) is not an absolute path" } ?? "\(name) is not set"
        }
        return "\(shown(variable)) and \(shown("HOME"))"
    }
}
